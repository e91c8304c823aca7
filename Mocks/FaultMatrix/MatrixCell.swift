/// One cell of the fault matrix: a provider's operation under one fault.
public struct MatrixCell: Sendable, Hashable, CustomStringConvertible {
    /// The provider, such as `dropbox`.
    public var provider: String
    /// The operation.
    public var operation: MatrixOperation
    /// The fault.
    public var fault: MatrixFault

    /// Creates a cell.
    public init(provider: String, operation: MatrixOperation, fault: MatrixFault) {
        self.provider = provider
        self.operation = operation
        self.fault = fault
    }

    /// `dropbox: small upload × 503 once`.
    public var description: String { "\(provider): \(operation.rawValue) × \(fault.rawValue)" }
}

/// What a cell came to.
public struct CellResult: Sendable, Hashable {
    /// Whether the operation ended as the matrix demands: it succeeded with the right content
    /// hash remotely and locally, leaving nothing partial, no duplicate and no stray file.
    public var passed: Bool
    /// How many more requests the operation sent to the faulted route than it sends without
    /// the fault: the retries the fault cost.
    public var retries: Int
    /// What was wrong, when the cell failed.
    public var failure: String?

    /// The table entry: `pass (1 retry)` or `FAIL`.
    public var summary: String {
        guard passed else { return "FAIL" }
        return "pass (\(retries) \(retries == 1 ? "retry" : "retries"))"
    }
}
