import Stratus

/// How a ``DropboxService`` commits its uploads: together, in batches, as Dropbox asks of a
/// client that writes many files.
///
/// Dropbox takes the writes of one namespace one at a time; many commits at once are refused
/// with `too_many_write_operations`. With batching, every upload sends its bytes into an upload
/// session of its own, concurrently, and the commits wait for one `upload_session/finish_batch_v2`
/// request that commits them all as one write. One batch is in flight per service at a time; the
/// uploads that finish while it is in flight form the next one. A commit that finds no batch in
/// flight goes at once unless other uploads of the service are still sending their bytes; then it
/// waits for them, at most ``window``.
///
/// Each entry of a batch carries its own `CommitInfo`, so every precondition (`add`,
/// `overwrite`, `update` with `strict_conflict`) and the custom metadata are kept per file,
/// exactly as with single commits; a file whose entry fails fails alone.
public struct CommitBatching: Sendable, Equatable {
    /// The longest a commit waits for the service's other uploads still sending their bytes,
    /// so that they join its batch.
    public var window: Duration
    /// The most entries in one batch (Dropbox allows 1,000).
    public var maximumEntries: Int

    /// The most entries Dropbox accepts in one batch.
    public static let largestBatch = 1000

    /// A 20 ms window and batches of up to 1,000 entries.
    public static let standard = CommitBatching(uncheckedWindow: .milliseconds(20), maximumEntries: largestBatch)

    private init(uncheckedWindow: Duration, maximumEntries: Int) {
        self.window = uncheckedWindow
        self.maximumEntries = maximumEntries
    }

    /// Creates batching settings.
    /// - Parameters:
    ///   - window: The longest a commit waits for other uploads on their way.
    ///   - maximumEntries: The most entries per batch, 1...1000.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for values out of range.
    public init(window: Duration = .milliseconds(20), maximumEntries: Int = CommitBatching.largestBatch) throws {
        guard (1...Self.largestBatch).contains(maximumEntries) else {
            throw ServiceError(
                .invalidConfiguration,
                "A Dropbox batch holds 1 to \(Self.largestBatch) entries, not \(maximumEntries).")
        }
        guard window >= .zero, window <= .seconds(10) else {
            throw ServiceError(
                .invalidConfiguration, "The Dropbox batch window must be 0 to 10 seconds, not \(window).")
        }
        self.window = window
        self.maximumEntries = maximumEntries
    }
}
