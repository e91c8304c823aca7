import Foundation
import MotoSupport
import Stratus
import StratusDrive
import StratusDropbox
import StratusFileSystem
import StratusLocal
import StratusOneDrive
import StratusS3
import StratusWebDAV
import WebDAVServers

/// The command line: `--records N --files N --file-kib N --changes N --concurrency N
/// --remote local|dropbox|dropbox-single|dropbox-uncontended|drive|onedrive|s3|webdav (repeatable)
/// --mock PATH --propagation-changes N --idle-seconds N`. `dropbox` is the mock with its write
/// contention (Dropbox's `too_many_write_operations`) and the adapter's batch commits, both the
/// defaults; `dropbox-single` commits each upload on its own against that mock, and
/// `dropbox-uncontended` runs the default adapter against a mock without contention.
struct BenchmarkOptions {
    var records = 10_000
    var files = 1_000
    var fileKiB = 64
    var changes = 100
    var concurrency = 8
    var remotes: [String] = []
    var mockExecutable: String?
    /// Saves whose propagation to a second device is timed, per remote.
    var propagationChanges = 200
    /// How long both devices are watched while nothing changes.
    var idleSeconds = 60

    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw BenchmarkFailure("\(argument) needs a value") }
            switch argument {
            case "--records": records = try Self.number(value, argument)
            case "--files": files = try Self.number(value, argument)
            case "--file-kib": fileKiB = try Self.number(value, argument)
            case "--changes": changes = try Self.number(value, argument)
            case "--concurrency": concurrency = try Self.number(value, argument)
            case "--remote": remotes.append(value)
            case "--mock": mockExecutable = value
            case "--propagation-changes": propagationChanges = try Self.number(value, argument)
            case "--idle-seconds": idleSeconds = try Self.number(value, argument)
            default: throw BenchmarkFailure("unknown option \(argument)")
            }
        }
        if remotes.isEmpty { remotes = mockExecutable == nil ? ["local"] : ["local", "dropbox"] }
        guard files <= records, changes <= records, records > 0 else {
            throw BenchmarkFailure("need files ≤ records, changes ≤ records")
        }
    }

    private static func number(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw BenchmarkFailure("\(name) takes a positive number, not \(text)")
        }
        return value
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Wall time and CPU time of one phase.
struct Measured {
    var seconds: Double
    var cpuSeconds: Double

    static func run(_ body: () async throws -> Void) async throws -> Measured {
        let cpu = CPUTime.now()
        let clock = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - clock
        return Measured(
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cpuSeconds: CPUTime.now() - cpu)
    }

    static func run(_ body: () throws -> Void) throws -> Measured {
        let cpu = CPUTime.now()
        let clock = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - clock
        return Measured(
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cpuSeconds: CPUTime.now() - cpu)
    }

    func row(remote: String, phase: String, records: Int, items: Int, bytes: Int64, requests: Int) -> String {
        let perSecond = { (count: Double) in String(format: "%.0f", count / seconds) }
        let megabytes = bytes > 0 ? String(format: "%.1f", Double(bytes) / 1e6 / seconds) : "—"
        return
            "| \(remote) | \(phase) | \(String(format: "%.2f s", seconds)) | \(records > 0 ? perSecond(Double(records)) : "—") | \(perSecond(Double(items))) | \(megabytes) | \(requests > 0 ? String(requests) : "—") | \(String(format: "%.2f", cpuSeconds)) |"
    }
}

/// This process's CPU time (user + system).
enum CPUTime {
    static func now() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// Peak resident memory (VmHWM) of this process.
enum PeakMemory {
    static func mebibytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            if let kib = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) { return kib / 1024 }
        }
        return -1
    }
}

/// The machine's load when the run started.
enum MachineLoad {
    static func describe() -> String {
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(
                separator: " ") ?? "?"
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load)."
    }
}

/// The files records carry: distinct seeded content of the same size.
struct InputFiles {
    let urls: [URL]
    let totalBytes: Int64

    init(count: Int, kib: Int, folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = UInt64(0x5EED)
        var urls: [URL] = []
        for index in 0..<count {
            var bytes = [UInt8](repeating: 0, count: kib * 1024)
            for position in stride(from: 0, to: bytes.count, by: 8) {
                generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: generator) { word in
                    for offset in 0..<min(8, bytes.count - position) { bytes[position + offset] = word[offset] }
                }
            }
            let url = folder.appending(path: "file-\(index)")
            try Data(bytes).write(to: url)
            urls.append(url)
        }
        self.urls = urls
        totalBytes = Int64(count) * Int64(kib) * 1024
    }
}

/// A remote to benchmark: a `local` folder, or a `stratus-mock dropbox` process.
final class RemoteEndpoint {
    private let name: String
    private let folder: URL
    private let process: ChildProcess?
    private let baseURL: URL?
    private let token: String?
    /// The S3 bucket (moto) or WebDAV collection (Apache) the services share.
    private let container: String?

    private init(
        name: String, folder: URL, process: ChildProcess?, baseURL: URL?, token: String?, container: String? = nil
    ) {
        self.name = name
        self.folder = folder
        self.process = process
        self.baseURL = baseURL
        self.token = token
        self.container = container
    }

    private static let webDAVUser = "stratus"
    private static let webDAVPassword = "sync-benchmark-password-not-secret"

    static func start(_ name: String, folder: URL, mock: String?) async throws -> RemoteEndpoint {
        switch name {
        case "local":
            return RemoteEndpoint(name: name, folder: folder, process: nil, baseURL: nil, token: nil)
        case "dropbox", "dropbox-single", "dropbox-uncontended", "drive", "onedrive":
            guard let mock else { throw BenchmarkFailure("--remote \(name) needs --mock PATH-TO-stratus-mock") }
            let log = folder.appending(path: "mock.log")
            let mode = name.hasPrefix("dropbox") ? "dropbox" : name
            let process = try ChildProcess(
                mock,
                // --in-memory: the rows measure Stratus, not the mock saving its metadata.
                [
                    mode, "--port", "0", "--token-ttl", "86400", "--data-dir", folder.appending(path: "mock-data").path,
                    "--in-memory",
                ]
                    + (name == "dropbox-uncontended" ? ["--no-write-contention"] : []),
                input: .null, output: .file(log.path), error: .file(log.path))
            var banner = ""
            for _ in 0..<300 where !banner.contains("access token:") {
                do {
                    try await Task.sleep(for: .milliseconds(100))
                } catch {
                    process.terminate()
                    throw error
                }
                banner = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            }
            func value(after label: String) -> String? {
                for line in banner.split(separator: "\n") {
                    if let range = line.range(of: label) {
                        return line[range.upperBound...].split(separator: " ").first.map(String.init)
                    }
                }
                return nil
            }
            guard let base = value(after: "listening on ").flatMap(URL.init(string:)),
                let token = value(after: "access token:")
            else {
                process.terminate()
                throw BenchmarkFailure("stratus-mock did not start:\n\(banner)")
            }
            return RemoteEndpoint(name: name, folder: folder, process: process, baseURL: base, token: token)
        case "s3":
            // moto (PyPI's moto[server]), a child of this process on a free port.
            let endpoint = try await MotoLauncher.start(minimumPartSize: 5 * 1_048_576)
            let bucket = "sync-bench-" + UUID().uuidString.lowercased().prefix(8)
            try await MotoLauncher.createBucket(bucket, at: endpoint)
            return RemoteEndpoint(
                name: name, folder: folder, process: nil, baseURL: endpoint, token: nil, container: bucket)
        case "webdav":
            // Apache httpd with mod_dav (Debian's apache2), a child of this process on a free port.
            let server = try await WebDAVServerLauncher.start(
                .apache, in: folder.appending(path: "apache"), user: webDAVUser, password: webDAVPassword)
            return RemoteEndpoint(
                name: name, folder: server.root, process: nil, baseURL: server.url, token: nil, container: "")
        default:
            throw BenchmarkFailure("unknown remote \(name): use local, dropbox, drive, onedrive, s3 or webdav")
        }
    }

    func makeService(root: String) throws -> any Service {
        if name == "s3", let baseURL, let container {
            return try S3Service(
                configuration: S3Configuration(
                    endpoint: baseURL, bucket: container, root: root, addressing: .path, versioning: .enable),
                credentials: S3Credentials(accessKeyID: "AKIDMOTOBENCH", secretAccessKey: "moto-bench-secret-not-real"))
        }
        if name == "webdav", let baseURL {
            let directory = folder.appending(path: root)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            chmod(directory.path, 0o777)
            guard let url = URL(string: root + "/", relativeTo: baseURL)?.absoluteURL else {
                throw BenchmarkFailure("no WebDAV URL for \(root)")
            }
            return try WebDAVService(
                configuration: WebDAVConfiguration(
                    url: url,
                    credentials: WebDAVCredentials(user: Self.webDAVUser, password: Self.webDAVPassword)))
        }
        if name == "drive", let baseURL, let token {
            return try DriveService(
                configuration: DriveConfiguration(apiURL: baseURL, uploadURL: baseURL, root: .folder(root)),
                credentials: .accessToken(token)
            )
        }
        if name == "onedrive", let baseURL, let token {
            // Graph's host (plain HTTP here); downloads and upload sessions go to the mock's content
            // host, which its answers name. The root is a folder of the drive, made on first use.
            return try OneDriveService(
                configuration: OneDriveConfiguration(apiURL: baseURL.appending(path: "v1.0"), root: .folder(root)),
                credentials: .accessToken(token)
            )
        }
        if let baseURL, let token {
            return try DropboxService(
                configuration: DropboxConfiguration(
                    apiURL: baseURL, contentURL: baseURL, notifyURL: baseURL, root: "/\(root)",
                    commitBatching: name == "dropbox-single" ? nil : .standard),
                credentials: .accessToken(token)
            )
        }
        let remote = folder.appending(path: "remote-\(root)")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        return try LocalService(root: remote)
    }

    /// Stops the mock, if one runs (SIGTERM), and waits for it to end.
    func stop() {
        if let process, process.send(SIGTERM) {
            _ = process.waitBlocking()
        }
    }
}
