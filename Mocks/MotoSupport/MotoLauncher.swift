import ChildServers
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Starts moto's S3 server (`Scripts/moto/moto-server.py`, from PyPI's `moto[server]`) on a port
/// the OS picks, for tests and simulations. The server exits when this process's end of its
/// stdin pipe closes, which the kernel does when the process ends, however it ends.
public enum MotoLauncher {
    /// Whether `python3` can import moto's server (asked once per process).
    public static func isInstalled() -> Bool { installed }

    private static let installed = ChildServer.pythonImports("moto.server")

    /// Starts a server.
    /// - Parameters:
    ///   - minimumPartSize: The smallest multipart part the server accepts (S3 itself: 5 MiB).
    ///   - arguments: More arguments for the script (such as `--cut-downloads-after N`).
    /// - Returns: The server's endpoint, `http://127.0.0.1:PORT`.
    /// - Throws: ``MotoUnavailable`` with moto's own output when it does not start.
    public static func start(minimumPartSize: Int64, arguments: [String] = []) async throws -> URL {
        try await ChildServer.offThePool { try startBlocking(minimumPartSize: minimumPartSize, arguments: arguments) }
    }

    /// ``start(minimumPartSize:arguments:)``, blocking the calling thread until moto answers.
    private static func startBlocking(minimumPartSize: Int64, arguments: [String]) throws -> URL {
        let log = FileManager.default.temporaryDirectory.appending(path: "stratus-moto-\(UUID().uuidString).log")
        let port: Int
        do {
            port = try ChildServer.startReportingPort(
                ["/usr/bin/env", "python3", scriptURL().path] + arguments,
                environment: ["S3_UPLOAD_PART_MIN_SIZE": String(minimumPartSize)], log: log, name: "moto")
        } catch let failure as ChildServer.Failure {
            throw MotoUnavailable(reason: failure.reason)
        }
        guard let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw MotoUnavailable(reason: "no URL for port \(port)")
        }
        return url
    }

    /// Creates a bucket on a moto server (an existing one is fine). moto does not check
    /// signatures, so a plain request does.
    public static func createBucket(_ name: String, at endpoint: URL) async throws {
        var request = URLRequest(url: endpoint.appending(path: name))
        request.httpMethod = "PUT"
        let (_, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) || status == 409 else {
            throw MotoUnavailable(reason: "creating bucket \(name) answered HTTP \(status)")
        }
    }

    private static func scriptURL() -> URL {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Scripts/moto/moto-server.py")
    }
}

/// moto could not be started.
public struct MotoUnavailable: Error, CustomStringConvertible {
    /// Why, with moto's own output.
    public var reason: String
    /// The ``reason``, with moto's own output.
    public var description: String { reason }
}
