import Foundation
import Stratus
import StratusTestSupport
import Testing
import WebDAVServers

@testable import StratusWebDAV

/// One server of each kind for the whole test process, started on first use on a free loopback
/// port. Each check works in a folder of its own on it.
enum WebDAVTestServers {
    static let user = "stratus"
    /// A throwaway password for the test servers; the redaction tests look for it in messages.
    static let password = "test-password-not-secret-42"

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }

    /// Whether a kind's tests run: when it is installed, and always under `CI=true`, where a
    /// missing server must fail loudly instead of skipping.
    static func shouldRun(_ kind: WebDAVServerLauncher.Kind) -> Bool {
        isCI || WebDAVServerLauncher.isInstalled(kind)
    }

    static let apacheRuns = shouldRun(.apache)
    static let rcloneRuns = shouldRun(.rclone)
    static let wsgidavRuns = shouldRun(.wsgidav)

    static func skipReason(_ kind: WebDAVServerLauncher.Kind) -> Comment {
        switch kind {
        case .apache:
            "Apache httpd with mod_dav is not installed (apt-get install apache2); the WebDAV tests against it are skipped. Under CI=true they fail instead."
        case .rclone:
            "rclone is not installed (apt-get install rclone); the WebDAV tests against it are skipped. Under CI=true they fail instead."
        case .wsgidav:
            "WsgiDAV is not installed (pip install wsgidav cheroot); the WebDAV tests against it are skipped. Under CI=true they fail instead."
        }
    }

    private static let apache = Task<WebDAVServerLauncher.Server, any Error> { try await start(.apache) }
    private static let rclone = Task<WebDAVServerLauncher.Server, any Error> { try await start(.rclone) }
    private static let wsgidav = Task<WebDAVServerLauncher.Server, any Error> { try await start(.wsgidav) }

    private static func start(_ kind: WebDAVServerLauncher.Kind) async throws -> WebDAVServerLauncher.Server {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "stratus-webdav-\(kind.rawValue)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try await WebDAVServerLauncher.start(kind, in: directory, user: user, password: password)
    }

    /// The running server of a kind, started the first time.
    static func server(_ kind: WebDAVServerLauncher.Kind) async throws -> WebDAVServerLauncher.Server {
        switch kind {
        case .apache: try await apache.value
        case .rclone: try await rclone.value
        case .wsgidav: try await wsgidav.value
        }
    }

    /// A configuration for a folder of its own on a server of a kind, with the features that
    /// kind has: rclone keeps no dead properties but gives MD5 ETags; rclone and WsgiDAV keep
    /// their locks exclusive, Apache does not.
    static func configuration(_ kind: WebDAVServerLauncher.Kind, folder: String, pageSize: Int = 500) async throws
        -> WebDAVConfiguration
    {
        let server = try await server(kind)
        let directory = server.root.appending(path: folder)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o777)
        guard let url = URL(string: folder + "/", relativeTo: server.url)?.absoluteURL else {
            throw WebDAVServerUnavailable(reason: "no URL for \(folder)")
        }
        return try WebDAVConfiguration(
            url: url,
            credentials: WebDAVCredentials(user: user, password: password),
            // Apache grants one exclusive lock to several simultaneous LOCKs; rclone and WsgiDAV do not.
            locksAreExclusive: kind != .apache,
            keepsDeadProperties: kind != .rclone,
            etagIsMD5: kind == .rclone,
            maximumNameLength: kind == .apache ? nil : 255,
            changePageSize: pageSize,
            lockWait: .seconds(30),
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
            pollingSchedule: PollingSchedule.quickForTests
        )
    }

    /// A service on a folder of its own.
    static func makeService(_ kind: WebDAVServerLauncher.Kind, folder: String, pageSize: Int = 500) async throws
        -> WebDAVService
    {
        try WebDAVService(configuration: try await configuration(kind, folder: folder, pageSize: pageSize))
    }
}
