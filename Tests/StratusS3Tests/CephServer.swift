import CephSupport
import Foundation
import Stratus
import Testing

@testable import StratusS3

/// One single-node Ceph for the whole test process (a monitor, an OSD on memstore and the RADOS
/// Gateway, through `CephLauncher`), started on first use on free loopback ports; it stops when
/// the test process ends, however it ends. Parts may be as small as moto's (256 KiB,
/// `rgw_multipart_min_part_size`).
enum CephServer {
    /// Whether the Ceph tests run: when Ceph's daemons are installed, and always under
    /// `CI=true`, where a missing Ceph must fail loudly instead of skipping.
    static let shouldRun: Bool = MotoServer.isCI || CephLauncher.isInstalled()

    static let skipReason: Comment =
        "Ceph is not installed (apt-get install ceph-mon ceph-osd radosgw ceph-common); the S3 tests against Ceph's RADOS Gateway are skipped. Under CI=true they fail instead."

    /// The gateway, starting the cluster the first time.
    /// - Throws: When Ceph cannot be started (with the daemons' logs).
    static func server() async throws -> CephLauncher.Server {
        try await launch.value
    }

    private static let launch = Task<CephLauncher.Server, any Error> {
        try await CephLauncher.start(
            minimumPartSize: MotoServer.minimumPartSize, accessKeyID: credentials.accessKeyID,
            secretAccessKey: credentials.secretAccessKey)
    }

    /// The S3 user the launcher creates.
    static let credentials = S3Credentials(accessKeyID: "STRATUSCEPHTEST", secretAccessKey: "ceph-test-secret-not-real")
}

/// The real S3 servers the fault-free S3 tests run against, as a test argument.
enum S3TestServer: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// moto's S3 emulator (Python), `Scripts/moto`.
    case moto
    /// Ceph 16's RADOS Gateway on a single-node cluster, `Scripts/ceph`.
    case ceph

    var testDescription: String { rawValue }

    /// Whether this server's tests run (always under `CI=true`).
    var shouldRun: Bool {
        switch self {
        case .moto: MotoServer.shouldRun
        case .ceph: CephServer.shouldRun
        }
    }

    /// Why this server's tests are skipped.
    var skipReason: Comment {
        switch self {
        case .moto: MotoServer.skipReason
        case .ceph: CephServer.skipReason
        }
    }

    /// Ends the current test case as skipped when the server is not installed (never under
    /// `CI=true`).
    func requireInstalled() throws {
        if !shouldRun { try Test.cancel(skipReason) }
    }

    /// The server's endpoint, starting it the first time.
    func endpoint() async throws -> URL {
        switch self {
        case .moto: try await MotoServer.endpoint()
        case .ceph: try await CephServer.server().endpoint
        }
    }

    var credentials: S3Credentials {
        switch self {
        case .moto: MotoServer.credentials
        case .ceph: CephServer.credentials
        }
    }

    /// A service on a bucket of its own on this server, created, with versioning as asked (the
    /// adapter turns it on for `.enable`).
    func makeService(
        bucket: String, root: String = "", pageSize: Int = 1000, abandonedUploadAge: Duration = .seconds(86_400),
        versioning: S3Configuration.Versioning = .enable
    ) async throws -> S3Service {
        try requireInstalled()
        var configuration = try MotoServer.configuration(
            endpoint: try await endpoint(), bucket: bucket, root: root, pageSize: pageSize,
            abandonedUploadAge: abandonedUploadAge)
        configuration.versioning = versioning
        let service = try S3Service(configuration: configuration, credentials: credentials)
        try await MotoServer.createBucket(service)
        try await service.ensureVersioning()
        return service
    }
}
