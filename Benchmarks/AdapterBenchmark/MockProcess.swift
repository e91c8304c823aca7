import BenchmarkSupport
import Foundation

/// A provider's `stratus-mock` (``MockServerProcess``, over HTTPS when the provider's is served
/// so) and what its banner says the clients need.
final class MockProcess {
    let endpoint: MockEndpoint
    /// Drive's root folder id ("My Drive"), from the banner.
    let rootFolderID: String?
    /// Dropbox: the banner's "write contention:" (`on (...)` or `off`).
    let writeContention: String?
    private let server: MockServerProcess

    /// Starts the mock (with `--tls` when the provider's is served over HTTPS) and waits (up to
    /// 30 s) for its banner. The Dropbox mock has its write contention on (its default) unless
    /// `extraArguments` says `--no-write-contention`.
    /// - Parameters:
    ///   - extraArguments: More options, such as `--no-write-contention` or `--tls-host NAME`.
    ///   - logName: The log file's name, `mock-<logName>.log` (default: the provider's).
    init(
        _ provider: Provider, executable: String, dataDirectory: URL, logFolder: URL, extraArguments: [String] = [],
        logName: String? = nil
    ) async throws {
        let server = try await MockServerProcess(
            executable: executable, mode: provider.rawValue, dataDirectory: dataDirectory,
            log: logFolder.appendingPathComponent("mock-\(logName ?? provider.rawValue).log"),
            extraArguments: (provider.servesTLS ? ["--tls"] : []) + extraArguments)
        let ca = server.value(after: "CA certificate:")
        guard let base = server.value(after: "listening on "), let token = server.value(after: "access token:"),
            ca != nil || !provider.servesTLS
        else {
            server.stop()
            throw BenchmarkFailure("stratus-mock \(provider.rawValue) gave no address, token or CA:\n\(server.banner)")
        }
        self.server = server
        endpoint = MockEndpoint(provider: provider, baseURL: base, accessToken: token, caFile: ca ?? "")
        rootFolderID = server.value(after: "root folder id:")
        writeContention = server.line(after: "write contention:")
    }

    /// The port it listens on, from its base URL.
    var port: Int? { endpoint.baseURL.split(separator: ":").last.flatMap { Int($0) } }

    /// Peak memory of the mock so far; `nil` once it has ended.
    var peakRSSKiB: Int? { server.peakRSSKiB }

    /// Stops the mock (SIGTERM) and waits for it to end.
    func stop() {
        server.stop()
    }
}
