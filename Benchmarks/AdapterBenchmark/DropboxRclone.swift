import BenchmarkSupport
import Foundation

/// rclone's Dropbox backend pointed at the mock without touching the machine's configuration.
///
/// rclone only talks to `api.dropboxapi.com`, `content.dropboxapi.com` and
/// `notify.dropboxapi.com` over HTTPS. So the mock's certificate also names those hosts
/// (`stratus-mock --tls-host`, ``hostArguments``), a ``ProxyProcess`` tunnels every CONNECT to
/// the mock's port, and rclone runs with `HTTPS_PROXY=http://127.0.0.1:PORT` (other proxy
/// variables removed), `--ca-cert` with the mock's CA, and `RCLONE_CONFIG` naming a
/// configuration file in the workspace whose `bench` remote holds the mock's access token with
/// a far expiry (so rclone never tries to refresh it). No hosts entry, no system CA.
final class DropboxRclone {
    /// The mock's options that make its certificate valid for Dropbox's host names.
    static let hostArguments = ["api.dropboxapi.com", "content.dropboxapi.com", "notify.dropboxapi.com"]
        .flatMap { ["--tls-host", $0] }

    let client: RcloneClient
    /// Before every command: `--ca-cert CA --dropbox-batch-mode sync`.
    let arguments: [String]
    private let proxy: ProxyProcess

    /// Starts the proxy and writes the configuration file.
    init(mock: MockProcess, executable: String, workspace: URL, processes: MeasuredProcess) async throws {
        guard let port = mock.port else { throw BenchmarkFailure("no port in \(mock.endpoint.baseURL)") }
        guard !mock.endpoint.caFile.isEmpty else { throw BenchmarkFailure("the Dropbox mock serves no HTTPS") }
        _ = try MeasuredProcess.resolve("rclone")
        let token = try JSONSerialization.data(
            withJSONObject: [
                "access_token": mock.endpoint.accessToken, "token_type": "bearer", "expiry": "2099-12-31T23:59:59Z",
            ], options: [.sortedKeys])
        let configuration = workspace.appendingPathComponent("rclone-dropbox.conf")
        let text = "[bench]\ntype = dropbox\ntoken = \(String(decoding: token, as: UTF8.self))\n"
        guard
            FileManager.default.createFile(
                atPath: configuration.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw BenchmarkFailure("cannot create \(configuration.path)") }
        try text.write(to: configuration, atomically: false, encoding: .utf8)
        let proxy = try await ProxyProcess(executable: executable, targetPort: port, logFolder: processes.logFolder)
        self.proxy = proxy
        client = RcloneClient(
            processes: processes, provider: .dropbox,
            environment: ["RCLONE_CONFIG": configuration.path, "HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)"],
            removed: ["https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"])
        arguments = ["--ca-cert", mock.endpoint.caFile, "--dropbox-batch-mode", "sync"]
    }

    /// Stops the proxy.
    func stop() {
        proxy.stop()
    }
}
