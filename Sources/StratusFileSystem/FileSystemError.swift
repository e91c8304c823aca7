#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call on a local file or folder that failed, with the `errno` it set.
///
/// Each module turns it into the error its callers see (`ServiceError`, `SyncError`), keeping it
/// as the underlying error.
public struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed, such as `"open"` or `"rename"`.
    public var operation: String
    /// The file or folder it was about.
    public var path: String
    /// The `errno` value the call set.
    public var errorNumber: Int32

    /// Describes a failed call.
    /// - Parameters:
    ///   - operation: The call's name.
    ///   - path: The file or folder it was about.
    ///   - errorNumber: The `errno` value it set.
    public init(operation: String, path: String, errorNumber: Int32) {
        self.operation = operation
        self.path = path
        self.errorNumber = errorNumber
    }

    /// Captures the current `errno` for a call that just failed.
    /// - Parameters:
    ///   - operation: The call's name.
    ///   - path: The file or folder it was about.
    /// - Returns: The error.
    public static func last(_ operation: String, _ path: String) -> FileSystemError {
        FileSystemError(operation: operation, path: path, errorNumber: errno)
    }

    /// The operating system's words for ``errorNumber``.
    public var reason: String {
        String(cString: strerror(errorNumber))
    }

    /// `<operation>(<path>) failed: <reason> (errno <number>)`.
    public var description: String {
        "\(operation)(\(path)) failed: \(reason) (errno \(errorNumber))"
    }
}
