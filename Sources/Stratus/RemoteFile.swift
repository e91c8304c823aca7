public import Foundation

/// What a service knows about one file: where it is, which content it holds, and which version.
public struct RemoteFile: Hashable, Sendable, Codable {
    /// The path, with the case the caller used when it wrote the file where the provider keeps it.
    public var path: RemotePath
    /// The provider's stable identifier of the file (it survives renames where the provider has
    /// them).
    public var id: String
    /// The size of the content in bytes.
    public var size: Int64
    /// When the content was last modified, as the provider reports it.
    public var modified: Date
    /// The hash of the content, when the provider reports one.
    public var contentHash: ContentHash?
    /// The version of the content this description is of.
    public var version: VersionID
    /// The caller's own string metadata attached to the file.
    public var metadata: [String: String]

    /// Creates a file description.
    public init(
        path: RemotePath,
        id: String,
        size: Int64,
        modified: Date,
        contentHash: ContentHash?,
        version: VersionID,
        metadata: [String: String] = [:]
    ) {
        self.path = path
        self.id = id
        self.size = size
        self.modified = modified
        self.contentHash = contentHash
        self.version = version
        self.metadata = metadata
    }
}
