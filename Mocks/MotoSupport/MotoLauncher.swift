import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Starts moto's S3 server (`Scripts/moto/moto-server.py`, from PyPI's `moto[server]`) on a port
/// the OS picks, for tests and simulations. The server exits when this process's end of its
/// stdin pipe closes, which the kernel does when the process ends, however it ends.
public enum MotoLauncher {
    /// Kept open for as long as the process lives: closing one stops its server.
    private static let keepAlive = Mutex<[FileHandle]>([])

    /// Whether `python3` can import moto's server (asked once per process).
    public static func isInstalled() -> Bool { installed }

    private static let installed: Bool = {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import moto.server"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Starts a server.
    /// - Parameters:
    ///   - minimumPartSize: The smallest multipart part the server accepts (S3 itself: 5 MiB).
    ///   - arguments: More arguments for the script (such as `--cut-downloads-after N`).
    /// - Returns: The server's endpoint, `http://127.0.0.1:PORT`.
    /// - Throws: ``MotoUnavailable`` with moto's own output when it does not start.
    public static func start(minimumPartSize: Int64, arguments: [String] = []) throws -> URL {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL().path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["S3_UPLOAD_PART_MIN_SIZE"] = String(minimumPartSize)
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        // A file, not a pipe: a pipe nobody drains would stall the server once full.
        let errorLog = FileManager.default.temporaryDirectory.appending(path: "stratus-moto-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorLog)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        keepAlive.withLock { $0.append(input.fileHandleForWriting) }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text), port > 0 else {
            process.waitUntilExit()
            let reason = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            throw MotoUnavailable(reason: "moto did not start (exit \(process.terminationStatus)): \(reason)")
        }
        // The server keeps its (open) log; the name goes, so no file outlives the run.
        try? FileManager.default.removeItem(at: errorLog)
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
