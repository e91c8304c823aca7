import Foundation
import Hummingbird
import MockNextcloud
import MockSupport
import StratusAdapterKit
import StratusHTTP
import StratusTestSupport

/// A Nextcloud mock on a loopback port with storage in a fresh temporary folder, and a client
/// that speaks raw WebDAV to it as user `alice`.
struct NextcloudHarness: Sendable {
    static let user = "alice"
    static let password = "app-password-for-tests"

    let server: MockNextcloudServer
    let baseURL: URL
    let client: StratusHTTPClient

    static func with<Result: Sendable>(
        largestSinglePut: Int64? = nil, uploadExpiry: Duration = .seconds(24 * 3600),
        _ body: @Sendable (NextcloudHarness) async throws -> Result
    ) async throws -> Result {
        let storage = try TemporaryFolder(prefix: "mocknextcloud")
        defer { storage.remove() }
        let server = try MockNextcloudServer(
            storageDirectory: storage.url, user: user, password: password, largestSinglePut: largestSinglePut,
            uploadExpiry: uploadExpiry)
        let router = Router()
        server.addRoutes(to: router)
        return try await StratusHTTPClient.withClient { client in
            try await MockServer.withRunning(router) { url in
                try await body(NextcloudHarness(server: server, baseURL: url, client: client))
            }
        }
    }

    /// The URL of a path under the user's files collection (`""` is the collection itself).
    func fileURL(_ path: String) -> URL {
        baseURL.appending(path: "remote.php/dav/files/\(Self.user)/").appending(path: path)
    }

    /// The URL of a path under the versions collection: `FILEID` or `FILEID/TIMESTAMP`.
    func versionURL(_ path: String) -> URL {
        baseURL.appending(path: "remote.php/dav/versions/\(Self.user)/versions/").appending(path: path)
    }

    /// The URL of an upload folder (or a chunk in it) of chunked uploads.
    func uploadURL(_ path: String) -> URL {
        baseURL.appending(path: "remote.php/dav/uploads/\(Self.user)/").appending(path: path)
    }

    /// Sends a request with the user's credentials (or `credentials`).
    func send(
        _ method: String, _ url: URL, body: Data = Data(), headers extra: [(String, String)] = [],
        credentials: String? = nil
    ) async throws -> StratusHTTPResponse {
        let basic = Data((credentials ?? "\(Self.user):\(Self.password)").utf8).base64EncodedString()
        var headers: StratusHTTPHeaders = ["Authorization": "Basic \(basic)"]
        for (name, value) in extra { headers.set(name, value) }
        return try await client.execute(
            StratusHTTPRequest(
                method: StratusHTTPMethod(rawValue: method), url: url, headers: headers, body: .bytes(body)))
    }

    /// PROPFIND of the named properties (`(namespace, name)`) at depth 0 or 1; the parsed
    /// multistatus answer.
    func propfind(_ url: URL, depth: String = "0", properties: [(String, String)]) async throws -> XMLTree {
        var prop = ""
        for (index, (namespace, name)) in properties.enumerated() {
            prop += "<p\(index):\(name) xmlns:p\(index)=\"\(XMLTree.escaped(namespace))\"/>"
        }
        let body = "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop>\(prop)</d:prop></d:propfind>"
        let response = try await send("PROPFIND", url, body: Data(body.utf8), headers: [("Depth", depth)])
        guard response.status == 207 else { throw UnexpectedStatus(status: response.status) }
        return try XMLTree.parse(response.body)
    }

    /// The text of a property found (status 200) in the first response of a multistatus.
    static func found(_ multistatus: XMLTree, _ namespace: String, _ name: String) -> String? {
        let response = multistatus.child("response", namespace: "DAV:")
        for propstat in response?.children("propstat", namespace: "DAV:") ?? [] {
            guard propstat.value("status")?.contains(" 200 ") == true else { continue }
            if let property = propstat.child("prop", namespace: "DAV:")?.child(name, namespace: namespace) {
                return property.text
            }
        }
        return nil
    }

    struct UnexpectedStatus: Error {
        var status: Int
    }
}
