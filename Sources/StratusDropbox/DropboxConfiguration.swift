public import Foundation
public import Stratus
import StratusAdapterKit

/// The settings of a ``DropboxService``: endpoints, root folder and transfer sizes.
public struct DropboxConfiguration: Sendable {
    /// The RPC host, `https://api.dropboxapi.com` by default.
    public var apiURL: URL
    /// The content host (uploads and downloads), `https://content.dropboxapi.com` by default.
    public var contentURL: URL
    /// The long-poll host, `https://notify.dropboxapi.com` by default.
    public var notifyURL: URL
    /// The folder inside the account (or app folder) that is the service's root; `""` is the top.
    public var root: String
    /// The size of each upload-session chunk: a multiple of 4 MiB, 8 MiB by default.
    public var chunkSize: Int64
    /// Files up to this size go up in one `files/upload` request; larger ones use an upload
    /// session. 8 MiB by default, at most 150 MiB.
    public var singleUploadLimit: Int64
    /// How many entries to ask for per `list_folder` page (1...2000), or `nil` for Dropbox's
    /// default.
    public var pageSize: Int?
    /// How requests that are safe to repeat are retried.
    public var retryPolicy: RetryPolicy
    /// How uploads are committed: in batches (the default, see ``CommitBatching``), or each on
    /// its own with `nil`.
    public var commitBatching: CommitBatching?

    /// 4 MiB, the unit of chunk sizes.
    public static let chunkUnit: Int64 = 4 * 1_048_576
    /// 150 MiB, the most one upload request may carry.
    public static let maximumSingleUpload: Int64 = 150 * 1_048_576

    /// Creates a configuration.
    /// - Parameters:
    ///   - apiURL: The RPC host.
    ///   - contentURL: The content host.
    ///   - notifyURL: The long-poll host.
    ///   - root: The root folder inside the account.
    ///   - chunkSize: The upload-session chunk size, a multiple of 4 MiB.
    ///   - singleUploadLimit: The largest single-request upload, at most 150 MiB.
    ///   - pageSize: Entries per listing page, 1...2000.
    ///   - retryPolicy: How safe-to-repeat requests are retried.
    ///   - commitBatching: How uploads are committed together; `nil` commits each on its own.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for out-of-range values.
    public init(
        apiURL: URL = DropboxConfiguration.https("api.dropboxapi.com"),
        contentURL: URL = DropboxConfiguration.https("content.dropboxapi.com"),
        notifyURL: URL = DropboxConfiguration.https("notify.dropboxapi.com"),
        root: String = "",
        chunkSize: Int64 = 8 * 1_048_576,
        singleUploadLimit: Int64 = 8 * 1_048_576,
        pageSize: Int? = nil,
        retryPolicy: RetryPolicy = .standard,
        commitBatching: CommitBatching? = CommitBatching.standard
    ) throws {
        guard chunkSize > 0, chunkSize % DropboxConfiguration.chunkUnit == 0 else {
            throw ServiceError(
                .invalidConfiguration,
                "The Dropbox option 'chunk_size' must be a positive multiple of 4 MiB (4194304 bytes), not \(chunkSize)."
            )
        }
        guard singleUploadLimit >= 0, singleUploadLimit <= DropboxConfiguration.maximumSingleUpload else {
            throw ServiceError(
                .invalidConfiguration,
                "The Dropbox option 'single_upload_limit' must be between 0 and 150 MiB (157286400 bytes), not \(singleUploadLimit)."
            )
        }
        if let pageSize, !(1...2000).contains(pageSize) {
            throw ServiceError(
                .invalidConfiguration, "The Dropbox option 'page_size' must be between 1 and 2000, not \(pageSize).")
        }
        self.apiURL = apiURL
        self.contentURL = contentURL
        self.notifyURL = notifyURL
        self.root = root
        self.chunkSize = chunkSize
        self.singleUploadLimit = singleUploadLimit
        self.pageSize = pageSize
        self.retryPolicy = retryPolicy
        self.commitBatching = commitBatching
    }

    /// `https://<host>` for one of Dropbox's fixed host names.
    /// - Parameter host: A host name such as `api.dropboxapi.com`.
    public static func https(_ host: String) -> URL { .https(host: host) }
}
