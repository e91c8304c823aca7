import Foundation
import Stratus
import StratusSync
import StratusWebDAV
import Testing
import WebDAVServers

/// Whether Apache's tests run: where it is installed, and always under `CI=true`, where a
/// missing server must fail instead of skipping.
private let apacheRuns =
    ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" || WebDAVServerLauncher.isInstalled(.apache)

/// Automatic sync through the `webdav` backend on Apache httpd (mod_dav), a server nobody here
/// wrote, whose change feed Stratus emulates and polls.
@Suite(.enabled(if: apacheRuns, "Apache httpd is not installed (apt-get install apache2)"))
struct AutomaticSyncOnWebDAVTests {
    private static let user = "stratus"
    private static let password = "sync-test-password-not-secret"
    private static let apache = Task<WebDAVServerLauncher.Server, any Error> {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "stratus-sync-apache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try await WebDAVServerLauncher.start(.apache, in: directory, user: user, password: password)
    }

    @Test func aSaveOnOneDeviceReachesTheOtherByItself() async throws {
        let server = try await Self.apache.value
        let folder = "sync-\(UUID().uuidString.prefix(8).lowercased())"
        let directory = server.root.appending(path: folder)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o777)
        let url = try #require(URL(string: folder + "/", relativeTo: server.url)?.absoluteURL)
        let configuration = try WebDAVConfiguration(
            url: url, credentials: WebDAVCredentials(user: Self.user, password: Self.password),
            locksAreExclusive: false, retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
            pollingSchedule: PollingSchedule(minimum: .milliseconds(200), maximum: .seconds(1)))
        let harness = try SyncHarness(service: WebDAVService(configuration: configuration))
        defer { harness.remove() }
        let a = try harness.device("a")
        let b = try harness.device("b")
        try await running(a.automaticSync(AutomaticSyncTests.quick), b.automaticSync(AutomaticSyncTests.quick)) {
            try await eventually("both devices finished their first sync") { a.status.isSettled && b.status.isSettled }
            try a.save(Save(level: 7), as: key("slot-1"), files: ["state": harness.file("state", "seven")])
            try await eventually("b has a's save") { try b.record(key("slot-1"))?.decode(Save.self).level == 7 }
            #expect(try text(of: b.record(key("slot-1")), "state") == "seven")
            try b.save(Save(level: 8), as: key("slot-1"))
            try await eventually("a has b's edit") { try a.record(key("slot-1"))?.decode(Save.self).level == 8 }
        }
    }
}
