import Foundation
import MockOAuth
import MockOneDrive
import MockProviders
import MockSupport
import StratusHTTP
import StratusTestSupport
import Testing

/// What a test of the OneDrive mock holds while `OneDriveMockProvider().withSession` runs it (both hosts):
/// the mock, a client that does not follow redirects, and a token; and the requests the test
/// sends it.
typealias OneDriveHarness = MockSession<OneDriveMockProvider>

extension MockSession where Provider == OneDriveMockProvider {
    /// The Graph host's base (append `/v1.0/...`).
    var graphURL: URL { baseURL }
    /// The content host's base (download and upload session URLs).
    var contentURL: URL? { mock.endpoints.contentURL }

    /// Sends a request to a path of the Graph host (`/v1.0/...`, query included, encoded).
    func send(
        _ method: StratusHTTPMethod, _ path: String, json: [String: Any]? = nil, body: Data? = nil,
        headers extra: [(String, String)] = [], token: String?? = .none
    ) async throws -> StratusHTTPResponse {
        let url = try #require(URL(string: graphURL.absoluteString + path))
        return try await send(method, absolute: url, json: json, body: body, headers: extra, token: token ?? self.token)
    }

    /// Sends a request to a whole URL (a link or a content-host URL); no token unless given.
    func send(
        _ method: StratusHTTPMethod, absolute url: URL, json: [String: Any]? = nil, body: Data? = nil,
        headers extra: [(String, String)] = [], token: String? = nil
    ) async throws -> StratusHTTPResponse {
        var headers: StratusHTTPHeaders = [:]
        if let token { headers.set("Authorization", "Bearer \(token)") }
        var payload = body ?? Data()
        if let json {
            payload = try JSONSerialization.data(withJSONObject: json)
            headers.set("Content-Type", "application/json")
        }
        for (name, value) in extra { headers.set(name, value) }
        return try await client.execute(
            StratusHTTPRequest(method: method, url: url, headers: headers, body: .bytes(payload)))
    }

    /// Uploads a small file by path with `PUT /content`.
    @discardableResult
    func put(_ path: String, _ content: Data, query: String = "", headers: [(String, String)] = []) async throws
        -> [String: Any]
    {
        let response = try await send(
            .put, "/v1.0/me/drive/root:\(path):/content\(query)", body: content, headers: headers)
        #expect([200, 201].contains(response.status), "PUT \(path): \(Self.text(response))")
        return try Self.object(response)
    }

    /// The item at a path.
    func item(_ path: String) async throws -> [String: Any] {
        let response = try await send(.get, "/v1.0/me/drive/root:\(path)")
        #expect(response.status == 200, "GET \(path): \(Self.text(response))")
        return try Self.object(response)
    }

    /// Follows `/content`'s 302 without the token and returns the bytes.
    func download(_ itemPath: String, range: String? = nil) async throws -> StratusHTTPResponse {
        let redirect = try await send(.get, "\(itemPath)/content")
        #expect(redirect.status == 302, "content: \(Self.text(redirect))")
        let location = try #require(redirect.headers["Location"].flatMap(URL.init(string:)))
        return try await send(.get, absolute: location, headers: range.map { [("Range", $0)] } ?? [])
    }

    static func object(_ response: StratusHTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    static func text(_ response: StratusHTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    /// The `error.code` and the codes of the nested `innerError` objects, outermost first.
    static func errorCodes(_ response: StratusHTTPResponse) throws -> [String] {
        var codes: [String] = []
        var current = try object(response)["error"] as? [String: Any]
        while let error = current {
            if let code = error["code"] as? String { codes.append(code) }
            current = error["innerError"] as? [String: Any]
        }
        return codes
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }
}
