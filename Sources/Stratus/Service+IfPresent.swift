extension Service {
    /// Describes the file at a path, or returns `nil` when no file is there.
    ///
    /// The same as ``metadata(of:)``, with ``ServiceError/Code/notFound`` (no file, or a folder,
    /// at the path) as `nil`.
    /// - Parameter path: The file's path.
    /// - Returns: The file's current description, or `nil` when no file is there.
    /// - Throws: ``ServiceError`` for any failure other than `notFound`.
    public func metadataIfPresent(of path: RemotePath) async throws -> RemoteFile? {
        try await ServiceError.nilIfNotFound { try await metadata(of: path) }
    }
}

extension ServiceError {
    /// Runs a call, and returns `nil` when it throws ``Code/notFound``.
    ///
    /// For a call whose missing target is an answer rather than a failure, such as
    /// `try await ServiceError.nilIfNotFound { try await service.list(folder) } ?? []`.
    /// ``Service/metadataIfPresent(of:)`` is this for ``Service/metadata(of:)``.
    /// - Parameter call: The call.
    /// - Returns: What the call returned, or `nil` when it threw `notFound`.
    /// - Throws: Whatever the call threw, other than a ``ServiceError`` with code `notFound`.
    public nonisolated(nonsending) static func nilIfNotFound<Value>(_ call: () async throws -> Value) async throws
        -> Value?
    {
        do {
            return try await call()
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }
}
