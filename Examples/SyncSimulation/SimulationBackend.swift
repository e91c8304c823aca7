import CephSupport
import FaultMatrix
import Foundation
import MockSupport
import MotoSupport
import Stratus
import StratusLocal
import StratusS3
import StratusWebDAV
import WebDAVServers

/// Every backend an adversarial run can sync through: `local`, the Dropbox, Drive and OneDrive
/// mocks (with their fault rules), S3 on moto and on a single-node Ceph (versioned buckets), and
/// WebDAV on Apache httpd (WsgiDAV or rclone where Apache is missing).
public enum SimulationBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A `local` service in the run's folder.
    case local
    /// The Dropbox mock.
    case dropbox
    /// The Drive mock.
    case drive
    /// The OneDrive (Graph) mock.
    case onedrive
    /// moto's S3 server, a versioned bucket of its own per run.
    case s3
    /// Ceph's RADOS Gateway, a versioned bucket of its own per run.
    case ceph
    /// A WebDAV server nobody here wrote, a folder of its own per run.
    case webdav

    /// The name, as `--remote` spells it.
    public var description: String { rawValue }

    /// A running backend for one run.
    public struct Session: Sendable {
        /// The shared service every device wraps.
        public var service: any Service
        /// The mock's fault rules, or `nil` for a backend without them (each device's
        /// ``AdversarialService`` then injects the wire faults).
        public var wire: WireFaults?
    }

    /// Why a backend could not run here: its server is not installed or did not start.
    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        /// The reason, with the server's own words.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    private static let cephServer = Task<CephLauncher.Server, any Error> {
        try await CephLauncher.start(
            minimumPartSize: 256 * 1024, storeBytes: 1_073_741_824, accessKeyID: "STRATUSSIMCEPH",
            secretAccessKey: "sync-sim-ceph-secret-not-real")
    }

    private static let webDAVUser = "stratus"
    private static let webDAVPassword = "sync-sim-password-not-secret"

    private static let webDAV = Task<WebDAVServerLauncher.Server, any Error> {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "stratus-sync-sim-dav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let kind = WebDAVServerLauncher.Kind.allCases.first(where: WebDAVServerLauncher.isInstalled) else {
            throw Unavailable(
                reason: "no WebDAV server is installed (apt-get install apache2, or pip install wsgidav cheroot)")
        }
        return try await WebDAVServerLauncher.start(kind, in: directory, user: webDAVUser, password: webDAVPassword)
    }

    /// Runs `body` with this backend started for one run, and stops what it started.
    /// - Parameters:
    ///   - folder: The run's folder.
    ///   - body: Gets the running backend.
    /// - Throws: ``Unavailable`` when the backend's server cannot be started here; what `body`
    ///   throws.
    public func withSession(folder: URL, _ body: @escaping @Sendable (Session) async throws -> Void) async throws {
        switch self {
        case .local:
            try await body(
                Session(service: LocalService(root: folder.appending(path: "remote", directoryHint: .isDirectory))))
        case .dropbox:
            try await DropboxMatrixProvider(clientStallTimeout: nil).withHarness { harness in
                try await body(
                    Session(
                        service: harness.service,
                        wire: WireFaults(
                            injector: harness.faults,
                            lookups: [.init("/2/files/get_metadata", "POST")],
                            commits: [
                                .init("/2/files/upload", "POST"), .init("/2/files/upload_session/finish", "POST"),
                            ])
                    ))
            }
        case .drive:
            try await DriveMatrixProvider(clientStallTimeout: nil).withHarness { harness in
                try await body(Session(service: harness.service, wire: Self.driveFaults(harness.faults)))
            }
        case .onedrive:
            try await OneDriveMatrixProvider(clientStallTimeout: nil).withHarness { harness in
                try await body(
                    Session(
                        service: harness.service,
                        wire: WireFaults(
                            injector: harness.faults, lookups: [.init("/v1.0/*", "GET")],
                            commits: [.init("/v1.0/*/content", "PUT"), .init("/upload/*", "PUT")])))
            }
        case .s3:
            let endpoint: URL
            do { endpoint = try await SimulationRemote.moto.value } catch {
                throw Unavailable(reason: "moto did not start: \(error)")
            }
            let service = try Self.s3Service(
                endpoint: endpoint,
                credentials: S3Credentials(accessKeyID: "AKIDMOTOTEST", secretAccessKey: "moto-test-secret-not-real"))
            try await service.createBucket()
            try await body(Session(service: service))
        case .ceph:
            let server: CephLauncher.Server
            do { server = try await Self.cephServer.value } catch {
                throw Unavailable(reason: "Ceph did not start: \(error)")
            }
            let service = try Self.s3Service(
                endpoint: server.endpoint,
                credentials: S3Credentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey))
            try await service.createBucket()
            try await body(Session(service: service))
        case .webdav:
            let server: WebDAVServerLauncher.Server
            do { server = try await Self.webDAV.value } catch {
                throw Unavailable(reason: "the WebDAV server did not start: \(error)")
            }
            let name = "sim-\(UUID().uuidString.prefix(8).lowercased())"
            let directory = server.root.appending(path: name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            chmod(directory.path, 0o777)
            guard let url = URL(string: name + "/", relativeTo: server.url)?.absoluteURL else {
                throw Unavailable(reason: "no URL for \(name) on \(server.url)")
            }
            let configuration = try WebDAVConfiguration(
                url: url, credentials: WebDAVCredentials(user: Self.webDAVUser, password: Self.webDAVPassword),
                locksAreExclusive: false, retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
                pollingSchedule: PollingSchedule(minimum: .milliseconds(200), maximum: .seconds(1)))
            try await body(Session(service: WebDAVService(configuration: configuration)))
        }
    }

    /// The Drive mock's routes: look-ups are the file queries a write's precondition makes
    /// (`GET /drive/v3/files`) and metadata reads; commits the content writes.
    static func driveFaults(_ injector: FaultInjector) -> WireFaults {
        WireFaults(
            injector: injector,
            lookups: [.init("/drive/v3/files", "GET"), .init("/drive/v3/files/*", "GET")],
            commits: [.init("/upload/drive/v3/files/*", "PATCH"), .init("/upload/drive/v3/files", "POST")])
    }

    private static func s3Service(endpoint: URL, credentials: S3Credentials) throws -> S3Service {
        let bucket = "stratus-sim-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        return try S3Service(
            configuration: S3Configuration(
                endpoint: endpoint, bucket: bucket, addressing: .path, versioning: .enable,
                singleUploadLimit: 512 * 1024, partSize: 256 * 1024, minimumPartSize: 256 * 1024,
                retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
                pollingSchedule: PollingSchedule(minimum: .milliseconds(200), maximum: .seconds(1))
            ),
            credentials: credentials
        )
    }
}
