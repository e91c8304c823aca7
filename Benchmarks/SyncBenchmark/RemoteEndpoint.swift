import BenchmarkSupport
import Foundation
import MotoSupport
import Stratus
import StratusDrive
import StratusDropbox
import StratusLocal
import StratusOneDrive
import StratusS3
import StratusWebDAV
import WebDAVServers

/// A remote to benchmark: a `local` folder, or a `stratus-mock dropbox` process.
final class RemoteEndpoint {
    private let name: String
    private let folder: URL
    private let mock: MockServerProcess?
    private let baseURL: URL?
    private let token: String?
    /// The S3 bucket (moto) or WebDAV collection (Apache) the services share.
    private let container: String?

    private init(
        name: String, folder: URL, mock: MockServerProcess?, baseURL: URL?, token: String?, container: String? = nil
    ) {
        self.name = name
        self.folder = folder
        self.mock = mock
        self.baseURL = baseURL
        self.token = token
        self.container = container
    }

    private static let webDAVUser = "stratus"
    private static let webDAVPassword = "sync-benchmark-password-not-secret"

    static func start(_ name: String, folder: URL, mock: String?) async throws -> RemoteEndpoint {
        switch name {
        case "local":
            return RemoteEndpoint(name: name, folder: folder, mock: nil, baseURL: nil, token: nil)
        case "dropbox", "dropbox-single", "dropbox-uncontended", "drive", "onedrive":
            guard let mock else { throw BenchmarkFailure("--remote \(name) needs --mock PATH-TO-stratus-mock") }
            let server = try await MockServerProcess(
                executable: mock, mode: name.hasPrefix("dropbox") ? "dropbox" : name,
                dataDirectory: folder.appending(path: "mock-data"), log: folder.appending(path: "mock.log"),
                extraArguments: name == "dropbox-uncontended" ? ["--no-write-contention"] : [])
            guard let base = server.value(after: "listening on ").flatMap(URL.init(string:)),
                let token = server.value(after: "access token:")
            else {
                server.stop()
                throw BenchmarkFailure("stratus-mock gave no address or token:\n\(server.banner)")
            }
            return RemoteEndpoint(name: name, folder: folder, mock: server, baseURL: base, token: token)
        case "s3":
            // moto (PyPI's moto[server]), a child of this process on a free port.
            let endpoint = try await MotoLauncher.start(minimumPartSize: 5 * 1_048_576)
            let bucket = "sync-bench-" + UUID().uuidString.lowercased().prefix(8)
            try await MotoLauncher.createBucket(bucket, at: endpoint)
            return RemoteEndpoint(
                name: name, folder: folder, mock: nil, baseURL: endpoint, token: nil, container: bucket)
        case "webdav":
            // Apache httpd with mod_dav (Debian's apache2), a child of this process on a free port.
            let server = try await WebDAVServerLauncher.start(
                .apache, in: folder.appending(path: "apache"), user: webDAVUser, password: webDAVPassword)
            return RemoteEndpoint(
                name: name, folder: server.root, mock: nil, baseURL: server.url, token: nil, container: "")
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
        mock?.stop()
    }
}
