public import Foundation
public import Stratus
import StratusAdapterKit

/// The settings of a ``DriveService``: endpoints, root folder and transfer sizes.
public struct DriveConfiguration: Sendable {
    /// The API host, `https://www.googleapis.com` by default; requests go to
    /// `<apiURL>/drive/v3/...`.
    public var apiURL: URL
    /// The upload host, `https://www.googleapis.com` by default; uploads go to
    /// `<uploadURL>/upload/drive/v3/files`.
    public var uploadURL: URL
    /// The folder that is the service's root.
    public var root: DriveRoot
    /// The size of each resumable-upload chunk: a positive multiple of 256 KiB, 8 MiB by default.
    public var chunkSize: Int64
    /// Files up to this size go up in one `uploadType=multipart` request; larger ones in a
    /// resumable session of ``chunkSize`` pieces. 5 MiB by default.
    public var singleUploadLimit: Int64
    /// How many entries to ask for per page of `files.list`, `changes.list` and
    /// `revisions.list`, 1...1000; 100 by default.
    public var pageSize: Int
    /// What ``DriveService/delete(_:precondition:)`` does.
    public var deleteMode: DeleteMode
    /// How requests that are safe to repeat are retried.
    public var retryPolicy: RetryPolicy
    /// How ``/Stratus/Service/waitForChanges(after:timeout:)`` polls `changes.list`; 2 to 30
    /// seconds by default.
    public var pollingSchedule: PollingSchedule
    /// A local folder where the service keeps what its change feed must still know after a
    /// restart (the path of each id it has seen, the last paths of files it deleted, and what it
    /// knew when it read each recent page), one private file per root folder; `nil` (the
    /// default) keeps it in memory only. Without it, a new process reading a token cannot name
    /// a file Drive reports removed by id alone (in the application data folder, every delete)
    /// unless it has listed or looked up that file itself. Give each service of one root its own
    /// process: two writing one state file at once replace each other's knowledge. The file is rewritten whole after each page or
    /// write that changed it, so it suits roots of up to some tens of thousands of files.
    public var stateFolder: URL?

    /// What a delete does to a file.
    public enum DeleteMode: String, Hashable, Sendable {
        /// Moves the file to the trash (`files.update` with `trashed: true`): the user can
        /// restore it, with its revisions, from Drive's trash for 30 days, and the change feed
        /// can still name it. The default for a My Drive folder root.
        case trash
        /// Deletes the file and its revisions for good (`files.delete`). The default for the
        /// application data folder, whose files the user never sees in a trash.
        case permanent
    }

    /// 256 KiB, the unit of resumable chunk sizes.
    public static let chunkUnit: Int64 = 262_144
    /// The largest single-request upload this adapter allows: 64 MiB (a multipart request is
    /// sent again whole after a failure, so it should stay small; Google suggests 5 MB).
    public static let maximumSingleUpload: Int64 = 64 * 1_048_576

    /// Creates a configuration.
    /// - Parameters:
    ///   - apiURL: The API host.
    ///   - uploadURL: The upload host.
    ///   - root: The root folder.
    ///   - chunkSize: The resumable chunk size, a positive multiple of 256 KiB.
    ///   - singleUploadLimit: The largest single-request upload, 0...64 MiB.
    ///   - pageSize: Entries per page, 1...1000.
    ///   - deleteMode: What a delete does; `nil` picks `.permanent` for the application data
    ///     folder and `.trash` for a My Drive folder.
    ///   - retryPolicy: How safe-to-repeat requests are retried.
    ///   - pollingSchedule: How waiting for changes polls (the `poll_interval` option).
    ///   - stateFolder: Where the change feed's knowledge is kept across restarts (the
    ///     `state_folder` option); `nil` for memory only.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for out-of-range values or a
    ///   root folder path that is not valid.
    public init(
        apiURL: URL = DriveConfiguration.googleAPIs,
        uploadURL: URL = DriveConfiguration.googleAPIs,
        root: DriveRoot = .appDataFolder,
        chunkSize: Int64 = 8 * 1_048_576,
        singleUploadLimit: Int64 = 5 * 1_048_576,
        pageSize: Int = 100,
        deleteMode: DeleteMode? = nil,
        retryPolicy: RetryPolicy = .standard,
        pollingSchedule: PollingSchedule = PollingSchedule(),
        stateFolder: URL? = nil
    ) throws {
        guard chunkSize > 0, chunkSize % DriveConfiguration.chunkUnit == 0 else {
            throw ServiceError(
                .invalidConfiguration,
                "The Drive option 'chunk_size' must be a positive multiple of 256 KiB (262144 bytes), not \(chunkSize)."
            )
        }
        guard singleUploadLimit >= 0, singleUploadLimit <= DriveConfiguration.maximumSingleUpload else {
            throw ServiceError(
                .invalidConfiguration,
                "The Drive option 'single_upload_limit' must be between 0 and 64 MiB (67108864 bytes), not \(singleUploadLimit)."
            )
        }
        guard (1...1000).contains(pageSize) else {
            throw ServiceError(
                .invalidConfiguration, "The Drive option 'page_size' must be between 1 and 1000, not \(pageSize).")
        }
        _ = try root.components()
        self.apiURL = apiURL
        self.uploadURL = uploadURL
        self.root = root
        self.chunkSize = chunkSize
        self.singleUploadLimit = singleUploadLimit
        self.pageSize = pageSize
        self.deleteMode = deleteMode ?? (root == .appDataFolder ? .permanent : .trash)
        self.retryPolicy = retryPolicy
        self.pollingSchedule = pollingSchedule
        self.stateFolder = stateFolder
    }

    /// `https://www.googleapis.com`, Google's API and upload host.
    public static var googleAPIs: URL { .https(host: "www.googleapis.com") }
}
