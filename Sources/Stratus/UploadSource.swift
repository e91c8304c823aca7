public import Foundation

/// Where the content of an upload comes from.
public enum UploadSource: Sendable {
    /// A local file, streamed from disk; it must not change while the upload runs.
    case file(URL)
    /// Bytes in memory, for small content.
    case bytes(Data)
}
