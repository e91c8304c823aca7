public import Foundation

/// One version of a file's content in its history.
public struct FileVersion: Hashable, Sendable, Codable {
    /// The version's identifier; pass it to ``Service/download(_:version:to:options:)`` or
    /// ``Service/restore(_:to:)``.
    public var id: VersionID
    /// The size of that version's content in bytes.
    public var size: Int64
    /// When that version was written.
    public var modified: Date
    /// The hash of that version's content, when the provider reports one.
    public var contentHash: ContentHash?

    /// Creates a version description.
    public init(id: VersionID, size: Int64, modified: Date, contentHash: ContentHash?) {
        self.id = id
        self.size = size
        self.modified = modified
        self.contentHash = contentHash
    }
}
