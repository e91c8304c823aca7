import BenchmarkSupport
import Foundation
import Stratus
import StratusDrive
import StratusDropbox
import StratusHTTP
import StratusOneDrive
import StratusS3
import StratusWebDAV

/// The Stratus side, built as an application would build it, pointed at a mock, moto or Apache.
enum StratusClients {
    /// The folder (Drive) the Drive service is rooted at; Dropbox's root is the account's top.
    static let driveRootFolder = "Bench"

    /// An HTTP client that trusts the mock's CA (when it serves HTTPS) and otherwise has the defaults.
    static func http(_ endpoint: MockEndpoint) throws -> StratusHTTPClient {
        guard !endpoint.caFile.isEmpty else { return try StratusHTTPClient() }
        return try StratusHTTPClient(configuration: .init(trustRoots: .caFile(URL(fileURLWithPath: endpoint.caFile))))
    }

    /// Set to `single` in a child's environment, the Dropbox service commits each upload on its
    /// own (`files/upload`) instead of in batches.
    static let singleCommitsVariable = "BENCH_DROPBOX_COMMITS"
    /// Set to a number of milliseconds, the Dropbox service's batch window instead of the default
    /// (for experiments by hand; the benchmark itself uses the default).
    static let batchWindowVariable = "BENCH_DROPBOX_BATCH_WINDOW_MS"

    /// The bucket on moto and on Ceph.
    static let s3Bucket = "stratus-bench"

    /// The provider's service with its default configuration (Dropbox: batch commits, unless
    /// ``singleCommitsVariable`` says otherwise), except the endpoints, (Drive) the
    /// largest page, 1,000 entries, which the SDK runs use too, (OneDrive) the app folder and pages
    /// of 1,000, (S3) path-style addressing and
    /// versioning turned on (moto's bucket starts without it), and (WebDAV) what Apache is: it
    /// keeps dead properties and its ETags are not MD5s.
    static func service(_ endpoint: MockEndpoint, http: StratusHTTPClient) throws -> any Service {
        guard let base = URL(string: endpoint.baseURL) else {
            throw BenchmarkFailure("'\(endpoint.baseURL)' is not a URL")
        }
        switch endpoint.provider {
        case .dropbox:
            // Batch commits are the default; the benchmark's single-commit line turns them off.
            let environment = ProcessInfo.processInfo.environment
            var batching: CommitBatching? = CommitBatching.standard
            if environment[singleCommitsVariable] == "single" {
                batching = nil
            } else if let milliseconds = environment[batchWindowVariable].flatMap({ Int($0) }) {
                batching = try CommitBatching(window: .milliseconds(milliseconds))
            }
            let configuration = try DropboxConfiguration(
                apiURL: base, contentURL: base, notifyURL: base, commitBatching: batching)
            return try DropboxService(
                configuration: configuration, credentials: .accessToken(endpoint.accessToken), http: http)
        case .drive:
            let configuration = try DriveConfiguration(
                apiURL: base, uploadURL: base, root: .folder(driveRootFolder), pageSize: 1000)
            return try DriveService(
                configuration: configuration, credentials: .accessToken(endpoint.accessToken), http: http)
        case .onedrive:
            // The app folder (the default root); the Graph host's base is BENCH_BASE.
            let configuration = try OneDriveConfiguration(apiURL: base.appending(path: "v1.0"), pageSize: 1000)
            return try OneDriveService(
                configuration: configuration, credentials: .accessToken(endpoint.accessToken), http: http)
        case .s3, .s3Ceph:
            let configuration = try S3Configuration(
                endpoint: base, bucket: s3Bucket, addressing: .path, versioning: .enable)
            return try S3Service(
                configuration: configuration,
                credentials: S3Credentials(accessKeyID: endpoint.user, secretAccessKey: endpoint.accessToken),
                http: http)
        case .webdav:
            let configuration = try WebDAVConfiguration(
                url: base, credentials: WebDAVCredentials(user: endpoint.user, password: endpoint.accessToken),
                keepsDeadProperties: true, etagIsMD5: false)
            return try WebDAVService(configuration: configuration, http: http)
        }
    }
}
