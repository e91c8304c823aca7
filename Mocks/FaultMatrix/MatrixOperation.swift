/// An operation of the fault matrix: one ``Stratus/Service`` call whose end state the matrix
/// checks under each fault.
public enum MatrixOperation: String, CaseIterable, Sendable, Hashable {
    case smallUpload = "small upload"
    /// A small upload whose fault hits the request that commits it with others, where the
    /// provider commits uploads in batches (Dropbox's `upload_session/finish_batch_v2`).
    case batchCommit = "batch commit"
    case chunkedUpload = "chunked upload"
    case download
    case changeFeed = "change feed"
    case versions
    case restore
    case delete

    /// Whether the operation is one of a provider's (batch commits are Dropbox's alone).
    /// - Parameter provider: The provider's name, such as `dropbox`.
    public func applies(to provider: String) -> Bool {
        self != .batchCommit || provider == "dropbox"
    }
}
