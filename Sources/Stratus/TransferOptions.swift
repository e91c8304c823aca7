/// Options for ``Service/upload(from:to:options:)``.
public struct UploadOptions: Sendable {
    /// What must hold on the remote file for the write to happen.
    public var precondition: WritePrecondition
    /// String metadata to attach to the file; `nil` keeps what the file had (on an overwrite),
    /// an empty dictionary removes it.
    public var metadata: [String: String]?
    /// Receives progress as content is sent.
    public var progress: ProgressHandler?

    /// Creates upload options.
    public init(
        precondition: WritePrecondition = .none,
        metadata: [String: String]? = nil,
        progress: ProgressHandler? = nil
    ) {
        self.precondition = precondition
        self.metadata = metadata
        self.progress = progress
    }
}

/// Options for ``Service/download(_:version:to:options:)``.
public struct DownloadOptions: Sendable {
    /// Receives progress as content arrives.
    public var progress: ProgressHandler?

    /// Creates download options.
    public init(progress: ProgressHandler? = nil) {
        self.progress = progress
    }
}
