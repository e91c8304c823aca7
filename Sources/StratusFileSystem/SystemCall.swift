#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one wrapper for POSIX calls that a signal can interrupt: a call that fails with `EINTR`
/// is made again, so no caller handles `EINTR` itself.
public enum SystemCall {
    /// Makes a call until it does not fail with `EINTR`.
    ///
    /// `errno` still holds the call's error when the result says it failed.
    /// - Parameter call: A call that returns a negative number and sets `errno` on failure,
    ///   such as `open`, `read`, `write`, `fsync` or `flock`.
    /// - Returns: The result of the last call.
    public static func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Makes a call until it does not fail with `EINTR`, and throws when it fails otherwise.
    /// - Parameters:
    ///   - operation: The call's name for the error, such as `"fsync"`.
    ///   - path: The file or folder the call is about, for the error.
    ///   - call: A call that returns a negative number and sets `errno` on failure.
    /// - Returns: The call's result, never negative.
    /// - Throws: ``FileSystemError`` with the call's `errno`.
    @discardableResult
    public static func checked<Result: BinaryInteger>(
        _ operation: String,
        _ path: String,
        _ call: () -> Result
    ) throws(FileSystemError) -> Result {
        let result = retryingOnInterrupt(call)
        guard result >= 0 else { throw FileSystemError.last(operation, path) }
        return result
    }
}
