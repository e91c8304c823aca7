import Foundation
import Hummingbird
import MockDrive
import MockOAuth
import MockProviders
import MockSupport
import StratusHTTP
import Testing

/// What a test of the Drive mock holds while `DriveMockProvider().withSession` runs it: the mock, a
/// client and a token; and the requests the test sends it.
typealias DriveHarness = MockSession<DriveMockProvider>

extension MockSession where Provider == DriveMockProvider {
    /// A URL under the base URL: `path` such as `/drive/v3/files`, with query parameters.
    func url(_ path: String, _ query: [(String, String)] = []) -> URL {
        var fields = FormFields()
        for (name, value) in query { fields.append(name, value) }
        let suffix = query.isEmpty ? "" : "?" + fields.encoded
        return URL(string: baseURL.absoluteString + path + suffix) ?? baseURL
    }

    /// Sends a request with the harness's token (or `token`, or none).
    func send(
        _ method: StratusHTTPMethod, _ path: String, query: [(String, String)] = [], json: [String: Any]? = nil,
        body: Data? = nil, headers extra: [(String, String)] = [], token: String?? = .none
    ) async throws -> StratusHTTPResponse {
        var headers: StratusHTTPHeaders = [:]
        if let token = token ?? self.token { headers.set("Authorization", "Bearer \(token)") }
        var payload = body ?? Data()
        if let json {
            payload = try JSONSerialization.data(withJSONObject: json)
            headers.set("Content-Type", "application/json; charset=UTF-8")
        }
        for (name, value) in extra { headers.set(name, value) }
        return try await client.execute(
            StratusHTTPRequest(method: method, url: url(path, query), headers: headers, body: .bytes(payload)))
    }

    /// Sends to an absolute URL (a resumable session URI).
    func send(
        _ method: StratusHTTPMethod, absolute url: URL, body: Data = Data(), headers extra: [(String, String)] = []
    ) async throws -> StratusHTTPResponse {
        var headers: StratusHTTPHeaders = ["Authorization": "Bearer \(token)"]
        for (name, value) in extra { headers.set(name, value) }
        return try await client.execute(
            StratusHTTPRequest(method: method, url: url, headers: headers, body: .bytes(body)))
    }

    /// Creates a file with content through a multipart upload; returns its resource (all fields).
    @discardableResult
    func createFile(
        _ name: String, _ content: Data, parent: String? = nil, mimeType: String = "text/plain",
        appProperties: [String: String]? = nil
    ) async throws -> [String: Any] {
        var metadata: [String: Any] = ["name": name]
        if let parent { metadata["parents"] = [parent] }
        if let appProperties { metadata["appProperties"] = appProperties }
        let (body, contentType) = try Self.multipart(metadata: metadata, content: content, mimeType: mimeType)
        let response = try await send(
            .post, "/upload/drive/v3/files", query: [("uploadType", "multipart"), ("fields", "*")],
            body: body, headers: [("Content-Type", contentType)]
        )
        #expect(response.status == 200, "create \(name): \(Self.text(response))")
        return try Self.object(response)
    }

    /// Creates a folder; returns its id.
    func createFolder(_ name: String, parent: String? = nil) async throws -> String {
        var metadata: [String: Any] = ["name": name, "mimeType": "application/vnd.google-apps.folder"]
        if let parent { metadata["parents"] = [parent] }
        let response = try await send(.post, "/drive/v3/files", json: metadata)
        #expect(response.status == 200, "folder \(name): \(Self.text(response))")
        return try #require(try Self.object(response)["id"] as? String)
    }

    /// A `multipart/related` body: JSON metadata, then the media.
    static func multipart(
        metadata: [String: Any], content: Data, mimeType: String, boundary: String = "stratus-boundary-42",
        lineBreak: String = "\r\n"
    ) throws -> (Data, String) {
        var body = Data()
        let json = try JSONSerialization.data(withJSONObject: metadata)
        body.append(
            Data("--\(boundary)\(lineBreak)Content-Type: application/json; charset=UTF-8\(lineBreak)\(lineBreak)".utf8))
        body.append(json)
        body.append(Data("\(lineBreak)--\(boundary)\(lineBreak)Content-Type: \(mimeType)\(lineBreak)\(lineBreak)".utf8))
        body.append(content)
        body.append(Data("\(lineBreak)--\(boundary)--\(lineBreak)".utf8))
        return (body, "multipart/related; boundary=\"\(boundary)\"")
    }

    static func object(_ response: StratusHTTPResponse) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: response.body)
        return try #require(value as? [String: Any])
    }

    static func text(_ response: StratusHTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    /// The first entry of a Google error body: (code, reason, location).
    static func error(_ response: StratusHTTPResponse) throws -> (
        code: Int, reason: String, location: String?, status: String?
    ) {
        let body = try object(response)
        let error = try #require(body["error"] as? [String: Any])
        let first = try #require((error["errors"] as? [[String: Any]])?.first)
        return (
            try #require(error["code"] as? Int), try #require(first["reason"] as? String),
            first["location"] as? String, error["status"] as? String
        )
    }

    /// Deterministic bytes of a given length.
    static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }
}
