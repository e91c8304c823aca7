/// An operation of the fault matrix: one ``Stratus/Service`` call whose end state the matrix
/// checks under each fault.
public enum MatrixOperation: String, CaseIterable, Sendable, Hashable {
    case smallUpload = "small upload"
    case chunkedUpload = "chunked upload"
    case download
    case changeFeed = "change feed"
    case versions
    case restore
    case delete
}
