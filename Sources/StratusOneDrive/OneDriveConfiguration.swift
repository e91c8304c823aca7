public import Foundation
public import Stratus
import StratusAdapterKit

/// The settings of a ``OneDriveService``: the Graph endpoint, the root folder and transfer
/// sizes.
public struct OneDriveConfiguration: Sendable {
    /// Graph's versioned base, `https://graph.microsoft.com/v1.0` by default; requests go to
    /// `<apiURL>/me/drive/...`.
    public var apiURL: URL
    /// The folder that is the service's root.
    public var root: OneDriveRoot
    /// Files up to this size go up in one `PUT .../content`; larger ones through an upload
    /// session. 4 MiB by default (Microsoft's advice for the simple upload), at most 250 MB.
    public var simpleUploadLimit: Int64
    /// The size of each upload-session fragment: a positive multiple of 320 KiB below 60 MiB,
    /// 10 MiB (32 × 320 KiB) by default.
    public var fragmentSize: Int64
    /// How many entries to ask for per page of children, versions and delta (`$top`), 1...1000;
    /// 200 by default.
    public var pageSize: Int
    /// How requests that are safe to repeat are retried.
    public var retryPolicy: RetryPolicy
    /// How ``/Stratus/Service/waitForChanges(after:timeout:)`` polls the delta feed.
    public var pollingSchedule: PollingSchedule
    /// A local folder where the service keeps what its delta feed must still know after a
    /// restart (the path of each item id it has seen, the last paths of files it deleted, and
    /// what it knew when it read each recent page), one private file per root; `nil` (the
    /// default) keeps it in memory only. Without it, a new process reading a token cannot name
    /// an item Graph reports deleted by id unless it has listed or looked up that item itself.
    /// Give each service of one root its own process: two writing one state file at once
    /// replace each other's knowledge. The file is rewritten whole after each page or
    /// write that changed it, so it suits roots of up to some tens of thousands of files.
    public var stateFolder: URL?
    /// The most pages one listing (children, versions, the delta feed's `token=latest` walk) may
    /// read before it ends with ``/Stratus/ServiceError/Code/invalidResponse``; a link to a page
    /// already read ends it at once. 10,000 by default (``/StratusAdapterKit/PagingGuard``).
    public var maximumPages: Int = PagingGuard.defaultMaximumPages

    /// 320 KiB, the unit of fragment sizes.
    public static let fragmentUnit: Int64 = 327_680
    /// Fragments must be smaller than 60 MiB.
    public static let fragmentLimit: Int64 = 60 * 1_048_576
    /// The largest simple upload Graph takes: 250 MB.
    public static let maximumSimpleUpload: Int64 = 250_000_000

    /// Creates a configuration.
    /// - Parameters:
    ///   - apiURL: Graph's versioned base URL.
    ///   - root: The root folder.
    ///   - simpleUploadLimit: The largest single-request upload, 0...250 MB.
    ///   - fragmentSize: The upload-session fragment size, a multiple of 320 KiB below 60 MiB.
    ///   - pageSize: Entries per page, 1...1000.
    ///   - retryPolicy: How safe-to-repeat requests are retried.
    ///   - pollingSchedule: How waiting for changes polls.
    ///   - stateFolder: Where the delta feed's knowledge is kept across restarts (the
    ///     `state_folder` option); `nil` for memory only.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for out-of-range values or a
    ///   root folder path that is not valid.
    public init(
        apiURL: URL = OneDriveConfiguration.graphV1,
        root: OneDriveRoot = .appFolder,
        simpleUploadLimit: Int64 = 4 * 1_048_576,
        fragmentSize: Int64 = 32 * 327_680,
        pageSize: Int = 200,
        retryPolicy: RetryPolicy = .standard,
        pollingSchedule: PollingSchedule = PollingSchedule(),
        stateFolder: URL? = nil
    ) throws {
        guard fragmentSize > 0, fragmentSize % Self.fragmentUnit == 0, fragmentSize < Self.fragmentLimit else {
            throw ServiceError(
                .invalidConfiguration,
                "The OneDrive option 'fragment_size' must be a positive multiple of 320 KiB (327680 bytes) below 60 MiB, not \(fragmentSize)."
            )
        }
        guard (0...Self.maximumSimpleUpload).contains(simpleUploadLimit) else {
            throw ServiceError(
                .invalidConfiguration,
                "The OneDrive option 'simple_upload_limit' must be between 0 and 250 MB (250000000 bytes), not \(simpleUploadLimit)."
            )
        }
        guard (1...1000).contains(pageSize) else {
            throw ServiceError(
                .invalidConfiguration, "The OneDrive option 'page_size' must be between 1 and 1000, not \(pageSize).")
        }
        _ = try root.components()
        self.apiURL = apiURL
        self.root = root
        self.simpleUploadLimit = simpleUploadLimit
        self.fragmentSize = fragmentSize
        self.pageSize = pageSize
        self.retryPolicy = retryPolicy
        self.pollingSchedule = pollingSchedule
        self.stateFolder = stateFolder
    }

    /// `https://graph.microsoft.com/v1.0`.
    public static var graphV1: URL { .https(host: "graph.microsoft.com", path: "/v1.0") }
}
