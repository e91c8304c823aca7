/// How far a transfer has come.
public struct TransferProgress: Hashable, Sendable {
    /// Bytes of content moved so far. It only grows during one call.
    public var completedBytes: Int64
    /// The size of the content when known.
    public var totalBytes: Int64?

    /// Creates a progress report.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The completed fraction from 0 to 1, when the total is known and not zero.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return Double(completedBytes) / Double(totalBytes)
    }
}

/// A callback that receives progress reports. It is called from any task, often, and must be
/// quick; reports arrive in order and ``TransferProgress/completedBytes`` never decreases.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void
