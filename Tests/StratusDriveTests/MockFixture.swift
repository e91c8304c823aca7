import Foundation
import Hummingbird
import MockDrive
import MockOAuth
import MockProviders
import MockSupport
import Stratus
import StratusDrive
import StratusHTTP
import StratusTestSupport

/// A mock Drive (with its Google-flavoured authorization server) on one base URL, and services
/// pointed at it.
struct MockFixture: Sendable {
    /// The running mock.
    let mock: RunningMock<DriveMockProvider>
    var server: MockDriveServer { mock.server }
    var baseURL: URL { mock.baseURL }
    var accessToken: String { mock.accessToken }
    var storage: URL { mock.storage }
    /// The mock's fault rules.
    var faults: FaultInjector { server.faults }

    /// Runs `body` while a fresh mock server runs on a port the OS picks, with its own storage.
    /// `front` adds routes or middleware ahead of the mock's (a proxy that rewrites answers).
    static func withRunning<Result: Sendable>(
        options: MockDriveServer.Options = .init(),
        front: (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: @Sendable (MockFixture) async throws -> Result
    ) async throws -> Result {
        try await DriveMockProvider(options: options).withRunning(front: front) { mock in
            try await body(MockFixture(mock: mock))
        }
    }

    /// A service against this server: 256 KiB chunks and a 64 KiB single-upload limit, so
    /// every boundary is crossed with little data.
    func makeService(
        root: DriveRoot = .appDataFolder,
        pageSize: Int = 100,
        singleUploadLimit: Int64 = 64 * 1024,
        deleteMode: DriveConfiguration.DeleteMode? = nil,
        stateFolder: URL? = nil
    ) throws -> DriveService {
        try DriveService(
            configuration: DriveConfiguration(
                apiURL: baseURL,
                uploadURL: baseURL,
                root: root,
                chunkSize: 256 * 1024,
                singleUploadLimit: singleUploadLimit,
                pageSize: pageSize,
                deleteMode: deleteMode,
                retryPolicy: RetryPolicy(maximumAttempts: Self.maximumAttempts, initialDelay: .milliseconds(10)),
                pollingSchedule: PollingSchedule.quickForTests,
                stateFolder: stateFolder
            ),
            credentials: .accessToken(accessToken)
        )
    }

    /// Creates a file behind the adapter's back, as another Drive client would, through a raw
    /// multipart request.
    /// - Returns: The new file's id.
    func createDirectly(name: String, parent: String, content: String, created: String? = nil) async throws -> String {
        let boundary = "test-boundary"
        var fields: [String: Any] = ["name": name, "parents": [parent]]
        if let created { fields["createdTime"] = created }
        let metadata = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        let body =
            "--\(boundary)\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n\(metadata)\r\n--\(boundary)\r\nContent-Type: text/plain\r\n\r\n\(content)\r\n--\(boundary)--\r\n"
        let url = baseURL.appending(path: "upload/drive/v3/files").appending(queryItems: [
            URLQueryItem(name: "uploadType", value: "multipart")
        ])
        var request = StratusHTTPRequest(method: .post, url: url, body: .bytes(Data(body.utf8)))
        request.headers.set("Authorization", "Bearer \(accessToken)")
        request.headers.set("Content-Type", "multipart/related; boundary=\(boundary)")
        let http = try StratusHTTPClient()
        let response = try await http.execute(request)
        await http.shutdown()
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let id = object["id"] as? String
        else { throw ServiceError(.invalidResponse, "The mock did not create \(name): HTTP \(response.status).") }
        return id
    }

    /// Creates a folder behind the adapter's back, as another Drive client would
    /// (`files.create` with the folder type).
    /// - Returns: The new folder's id.
    func createFolderDirectly(name: String, parent: String, created: String? = nil) async throws -> String {
        var fields: [String: Any] = [
            "name": name, "parents": [parent], "mimeType": "application/vnd.google-apps.folder",
        ]
        if let created { fields["createdTime"] = created }
        let url = baseURL.appending(path: "drive/v3/files")
        var request = StratusHTTPRequest(
            method: .post, url: url, body: .bytes(try JSONSerialization.data(withJSONObject: fields)))
        request.headers.set("Authorization", "Bearer \(accessToken)")
        request.headers.set("Content-Type", "application/json")
        let http = try StratusHTTPClient()
        let response = try await http.execute(request)
        await http.shutdown()
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let id = object["id"] as? String
        else { throw ServiceError(.invalidResponse, "The mock did not create \(name): HTTP \(response.status).") }
        return id
    }

    /// How many attempts the services' retry policy allows.
    static let maximumAttempts = 3
}
