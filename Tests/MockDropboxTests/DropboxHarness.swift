import Foundation
import Hummingbird
import MockDropbox
import MockOAuth
import MockProviders
import MockSupport
import StratusDigest
import StratusHTTP
import Testing

/// What a test of the Dropbox mock holds while `DropboxMockProvider().withSession` runs it: the mock, a
/// client and a token; and the requests the test sends it.
typealias DropboxHarness = MockSession<DropboxMockProvider>

extension MockSession where Provider == DropboxMockProvider {
    /// JSON text with non-ASCII escaped as `\uXXXX`, as the SDKs put in headers.
    static func asciiJSON(_ object: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        var output = ""
        for unit in String(decoding: data, as: UTF8.self).utf16 {
            if unit < 0x7F {
                output.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            } else {
                let digits = String(unit, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            }
        }
        return output
    }

    func url(_ route: String) -> URL {
        baseURL.appendingPathComponent("2/files/" + route)
    }

    func headers(token: String?) -> StratusHTTPHeaders {
        var headers: StratusHTTPHeaders = [:]
        if let token { headers.set("Authorization", "Bearer \(token)") }
        return headers
    }

    /// An RPC call with a JSON body.
    func rpc(_ route: String, _ arguments: [String: Any], token: String?? = .none) async throws -> StratusHTTPResponse {
        var headers = headers(token: token ?? self.token)
        headers.set("Content-Type", "application/json")
        let body = try JSONSerialization.data(withJSONObject: arguments)
        return try await client.execute(
            StratusHTTPRequest(method: .post, url: url(route), headers: headers, body: .bytes(body)))
    }

    /// An upload-style call: arguments in `Dropbox-API-Arg`, bytes in the body.
    func contentCall(
        _ route: String, _ arguments: [String: Any], data: Data = Data(), extraHeaders: [(String, String)] = []
    ) async throws -> StratusHTTPResponse {
        var headers = headers(token: token)
        headers.set("Content-Type", "application/octet-stream")
        headers.set("Dropbox-API-Arg", try Self.asciiJSON(arguments))
        for (name, value) in extraHeaders { headers.set(name, value) }
        return try await client.execute(
            StratusHTTPRequest(method: .post, url: url(route), headers: headers, body: .bytes(data)))
    }

    /// Uploads bytes with `files/upload` and returns the decoded result (expects 200).
    @discardableResult
    func upload(_ path: String, _ text: String, mode: Any = "add") async throws -> [String: Any] {
        let response = try await contentCall("upload", ["path": path, "mode": mode], data: Data(text.utf8))
        #expect(response.status == 200, "upload \(path): \(String(decoding: response.body, as: UTF8.self))")
        return try Self.object(response)
    }

    static func object(_ response: StratusHTTPResponse) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: response.body)
        return try #require(value as? [String: Any])
    }

    static func contentHash(_ data: Data) -> String {
        let hash = DropboxContentHash()
        data.withUnsafeBytes { hash.update($0) }
        return hash.finalizeHex()
    }
}
