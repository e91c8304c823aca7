import Foundation
import Hummingbird
import MockNextcloud
import MockSupport
import Stratus
import StratusTestSupport

@testable import StratusWebDAV

/// One Nextcloud-dialect mock for the whole test process, started on first use on port 0.
enum NextcloudMockServer {
    static let user = "alice"
    static let password = "nextcloud-app-password-not-secret"

    struct Running: Sendable {
        var server: MockNextcloudServer
        var baseURL: URL
    }

    private static let launch = Task<Running, any Error> {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stratus-nextcloud-\(UUID().uuidString)")
        let server = try MockNextcloudServer(storageDirectory: folder, user: user, password: password)
        let router = Router()
        server.addRoutes(to: router)
        let (urls, announce) = AsyncStream<URL>.makeStream()
        Task.detached {
            try await MockServer.run(router) { url in
                announce.yield(url)
                announce.finish()
            }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else { throw WebDAVMockUnavailable() }
        return Running(server: server, baseURL: url)
    }

    struct WebDAVMockUnavailable: Error {}

    static func running() async throws -> Running { try await launch.value }

    /// A service on a folder of its own (created with MKCOL by the adapter's first write; the
    /// folder is made here so the feed can start at once).
    static func makeService(folder: String, pageSize: Int = 500) async throws -> WebDAVService {
        let running = try await running()
        guard let url = URL(string: "\(running.baseURL.absoluteString)/remote.php/dav/files/\(user)/\(folder)/") else {
            throw WebDAVMockUnavailable()
        }
        let root = try WebDAVConfiguration(
            url: URL(string: "\(running.baseURL.absoluteString)/remote.php/dav/files/\(user)/")!,
            credentials: WebDAVCredentials(user: user, password: password), vendor: .nextcloud)
        try await WebDAVService(configuration: root).ensureFolders(try RemotePath(folder))
        return try WebDAVService(
            configuration: WebDAVConfiguration(
                url: url,
                credentials: WebDAVCredentials(user: user, password: password),
                vendor: .nextcloud,
                changePageSize: pageSize,
                retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
                pollingSchedule: PollingSchedule.quickForTests
            ))
    }
}
