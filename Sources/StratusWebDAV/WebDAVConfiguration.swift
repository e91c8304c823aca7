public import Foundation
public import Stratus

/// Where a WebDAV remote lives and how the adapter talks to it.
///
/// ```swift
/// let configuration = try WebDAVConfiguration(
///     url: URL(string: "https://cloud.example.com/remote.php/dav/files/alice/Saves")!,
///     credentials: WebDAVCredentials(user: "alice", password: "app-password"),
///     vendor: .nextcloud
/// )
/// ```
public struct WebDAVConfiguration: Sendable {
    /// The server software, for the features beyond RFC 4918 the adapter uses.
    public enum Vendor: String, Sendable, CaseIterable {
        /// Any RFC 4918 server (Apache mod_dav, rclone, WsgiDAV, nginx-dav-ext, ...).
        case generic
        /// Nextcloud: folder ETags change when anything below changes, and files keep versions
        /// at `/remote.php/dav/versions/USER/versions/FILEID`.
        case nextcloud
        /// ownCloud: folder ETags change when anything below changes.
        case owncloud
    }

    /// The collection that is the remote's root, ending in `/`.
    public var url: URL
    /// The user and password sent with HTTP Basic authentication.
    public var credentials: WebDAVCredentials
    /// The server software.
    public var vendor: Vendor
    /// Whether writes take a WebDAV write lock (class 2) on the adapter's lock resource for the
    /// path, so that Stratus writers of one path take turns. Turn it off for a class 1 server.
    public var usesLocks: Bool
    /// Whether the server grants an exclusive lock to one of many concurrent LOCK requests only,
    /// so that preconditions are ``/Stratus/ServiceCapabilities/ConditionalWrites/atomic`` (with
    /// ``usesLocks``). rclone and WsgiDAV keep their locks in memory under a mutex and do
    /// (measured); Apache mod_dav_fs does not: its lock database (Berkeley DB on Debian) is read
    /// and rewritten by each prefork process without a lock around both, so 8 simultaneous
    /// LOCKs of one resource were granted to 2 or 3 of them in 6 of 30 rounds (measured). False by
    /// default: a server nobody measured is not claimed atomic.
    public var locksAreExclusive: Bool
    /// Whether the server keeps dead properties (PROPPATCH), where the adapter keeps the content
    /// hash, a version token and custom metadata.
    public var keepsDeadProperties: Bool
    /// Whether the server's ETag of a file is the MD5 of its content (rclone with
    /// `--etag-hash MD5`); the adapter then reports and checks MD5 hashes.
    public var etagIsMD5: Bool
    /// Whether a folder's ETag changes when anything below it changes, so that the change feed
    /// can skip unchanged subtrees. Nextcloud and ownCloud do; Apache does not.
    public var propagatesFolderETags: Bool
    /// The longest file or folder name in UTF-8 bytes. Apache keeps a file's dead properties in
    /// a database named after the file in `.DAV/`, which it cannot open for a name longer than
    /// 250 bytes (measured); Nextcloud allows 250 too.
    public var maximumNameLength: Int
    /// Changes per change-feed page.
    public var changePageSize: Int
    /// How long the change feed's journal entries and snapshots are kept in `.stratus/`. Older
    /// ones are deleted (at most once per service instance, when it first reads the feed), and a
    /// change token older than what was deleted gets
    /// ``/Stratus/ServiceError/Code/invalidChangeToken``, after which a client lists the files
    /// again.
    public var feedRetention: Duration
    /// How long a write waits for another writer's lock on the same path before giving up,
    /// counted from the moment no earlier writer of the same service instance is in line for
    /// the path. Locks are leased for half of it (5 to 60 seconds) and refreshed while a write
    /// runs, so a lock nobody releases expires within the wait.
    public var lockWait: Duration
    /// How failed requests are repeated.
    public var retryPolicy: RetryPolicy
    /// How ``/Stratus/Service/waitForChanges(after:timeout:)`` polls the emulated feed; 2 to 30
    /// seconds by default.
    public var pollingSchedule: PollingSchedule
    /// On Nextcloud, the largest upload sent in one PUT; larger ones go through Nextcloud's
    /// chunked upload (v2) in chunks of ``chunkSize``. 10 MiB by default, like Nextcloud's own
    /// clients; other vendors ignore it and send every upload in one PUT.
    public var chunkedUploadThreshold: Int64
    /// On Nextcloud, the size of each chunk of a chunked upload (the last one may be smaller).
    /// 10 MiB by default, the Nextcloud desktop client's first chunk size. Nextcloud on S3
    /// primary storage refuses chunks below 5 MiB (except the last), so smaller chunks are for
    /// tests and servers on local storage. A file that would need more than 10,000 chunks (the
    /// protocol's limit) is sent in larger ones.
    public var chunkSize: Int64

    /// The default of ``chunkedUploadThreshold`` and ``chunkSize``: 10 MiB.
    public static let defaultChunkSize: Int64 = 10 * 1_048_576
    /// The largest chunk Nextcloud accepts: 5 GiB.
    public static let largestChunkSize: Int64 = 5 * 1_073_741_824

    /// Creates a configuration.
    /// - Parameters:
    ///   - url: The collection that is the remote's root (`http` or `https`).
    ///   - credentials: User and password.
    ///   - vendor: The server software; `.generic` by default.
    ///   - usesLocks: Whether writes take WebDAV locks; true by default.
    ///   - locksAreExclusive: Whether the server's exclusive locks hold under concurrent LOCK
    ///     requests; false by default.
    ///   - keepsDeadProperties: Whether the server keeps dead properties; true by default.
    ///   - etagIsMD5: Whether file ETags are content MD5s; false by default.
    ///   - propagatesFolderETags: Whether folder ETags follow changes below; the vendor's
    ///     behaviour by default.
    ///   - maximumNameLength: The longest name in UTF-8 bytes; 250 by default (Apache's limit for
    ///     names with dead properties, and Nextcloud's).
    ///   - changePageSize: Changes per change-feed page; 500 by default.
    ///   - feedRetention: How long the change feed's journal and snapshots are kept; 30 days
    ///     by default.
    ///   - lockWait: How long a write waits for a busy path; 30 seconds by default.
    ///   - retryPolicy: How failed requests are repeated.
    ///   - pollingSchedule: How waiting for changes polls (the `poll_interval` option).
    ///   - chunkedUploadThreshold: On Nextcloud, the largest upload sent in one PUT; 10 MiB by
    ///     default (the `chunked_upload_above` option).
    ///   - chunkSize: On Nextcloud, the chunk size of larger uploads; 10 MiB by default (the
    ///     `chunk_size` option).
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when the URL has no host or
    ///   is not `http`/`https`, names no Nextcloud files collection for `.nextcloud`, or when
    ///   `chunkedUploadThreshold` is negative or `chunkSize` is not between 1 byte and 5 GiB.
    public init(
        url: URL,
        credentials: WebDAVCredentials,
        vendor: Vendor = .generic,
        usesLocks: Bool = true,
        locksAreExclusive: Bool = false,
        keepsDeadProperties: Bool = true,
        etagIsMD5: Bool = false,
        propagatesFolderETags: Bool? = nil,
        maximumNameLength: Int? = nil,
        changePageSize: Int = 500,
        feedRetention: Duration = .seconds(30 * 24 * 3600),
        lockWait: Duration = .seconds(30),
        retryPolicy: RetryPolicy = .standard,
        pollingSchedule: PollingSchedule = PollingSchedule(),
        chunkedUploadThreshold: Int64 = WebDAVConfiguration.defaultChunkSize,
        chunkSize: Int64 = WebDAVConfiguration.defaultChunkSize
    ) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: false), !host.isEmpty
        else {
            throw ServiceError(.invalidConfiguration, "The WebDAV URL must be an http or https URL with a host.")
        }
        var text = url.absoluteString
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<query]) }
        if !text.hasSuffix("/") { text += "/" }
        guard let root = URL(string: text) else {
            throw ServiceError(.invalidConfiguration, "The WebDAV URL cannot be read.")
        }
        self.url = root
        self.credentials = credentials
        self.vendor = vendor
        self.usesLocks = usesLocks
        self.locksAreExclusive = locksAreExclusive
        self.keepsDeadProperties = keepsDeadProperties
        self.etagIsMD5 = etagIsMD5
        self.propagatesFolderETags = propagatesFolderETags ?? (vendor != .generic)
        self.maximumNameLength = max(1, maximumNameLength ?? 250)
        self.changePageSize = max(1, changePageSize)
        self.feedRetention = max(.zero, feedRetention)
        self.lockWait = lockWait
        self.retryPolicy = retryPolicy
        self.pollingSchedule = pollingSchedule
        guard chunkedUploadThreshold >= 0 else {
            throw ServiceError(
                .invalidConfiguration,
                "The WebDAV option 'chunked_upload_above' must be 0 or more bytes, not \(chunkedUploadThreshold).")
        }
        guard chunkSize > 0, chunkSize <= Self.largestChunkSize else {
            throw ServiceError(
                .invalidConfiguration,
                "The WebDAV option 'chunk_size' must be between 1 byte and 5 GiB (\(Self.largestChunkSize) bytes, Nextcloud's largest chunk), not \(chunkSize)."
            )
        }
        self.chunkedUploadThreshold = chunkedUploadThreshold
        self.chunkSize = chunkSize
        if vendor == .nextcloud, nextcloudLayout == nil {
            throw ServiceError(
                .invalidConfiguration,
                "A Nextcloud remote's URL must name a folder in /remote.php/dav/files/USER/ (such as https://cloud.example.com/remote.php/dav/files/alice/Saves)."
            )
        }
    }

    /// Whether uploads go to a temporary resource in `.stratus/uploads/` and are then moved onto
    /// the target. Generic servers may write a PUT body in place (rclone and WsgiDAV do), so a
    /// PUT cut short would leave a partial file; Nextcloud and ownCloud write a PUT to a `.part`
    /// file and rename it themselves, and keep a version per PUT of the file, which a MOVE over
    /// it would not (it deletes the old file, versions and all), so they get the PUT directly.
    var writesThroughTemporaryResource: Bool { vendor == .generic }

    /// Whether uploads larger than ``chunkedUploadThreshold`` go through Nextcloud's chunked
    /// upload (v2). ownCloud 10 speaks chunking v1 only, and oCIS speaks TUS: both get one PUT.
    var usesChunkedUpload: Bool { vendor == .nextcloud }

    /// The Nextcloud DAV base (`.../remote.php/dav`) and user of the URL, when it names a folder
    /// in a Nextcloud files collection.
    var nextcloudLayout: (base: String, user: String)? {
        let path = url.path(percentEncoded: true)
        guard let range = path.range(of: "/remote.php/dav/files/") else { return nil }
        let rest = path[range.upperBound...]
        guard let user = rest.split(separator: "/", omittingEmptySubsequences: false).first, !user.isEmpty else {
            return nil
        }
        let base = String(path[..<range.lowerBound]) + "/remote.php/dav"
        return (base, String(user))
    }
}
