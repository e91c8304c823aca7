#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a ``ChildProcess`` did not start or did not finish as asked.
///
/// It names the executable and never its arguments, input or output, which may hold a password
/// (a `password_command`'s line, say).
package enum ChildProcessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No executable file of that name: the path does not exist, or a bare name is in no folder
    /// of `PATH`.
    case executableNotFound(String)
    /// `posix_spawn` (or a pipe or thread it needs) failed with this `errno`.
    case cannotStart(executable: String, errorNumber: Int32)
    /// A file given for standard input or output, or the working directory, cannot be opened.
    case cannotOpen(path: String, errorNumber: Int32)
    /// An argument or environment variable holds a NUL byte, which C strings cannot carry.
    case nulInArgument(executable: String)
    /// The child ran longer than its time limit and was killed (SIGKILL).
    case timedOut(executable: String, after: Duration)
    /// The child wrote more than the limit to a collected output; reading stopped there.
    case outputTooLarge(executable: String, limit: Int)

    /// One sentence for people, naming the executable only.
    package var description: String {
        switch self {
        case .executableNotFound(let name):
            return "The program \(name) was not found."
        case .cannotStart(let executable, let errorNumber):
            return "The program \(executable) could not be started: \(Self.reason(errorNumber)) (errno \(errorNumber))."
        case .cannotOpen(let path, let errorNumber):
            return "\(path) cannot be opened for a child process: \(Self.reason(errorNumber)) (errno \(errorNumber))."
        case .nulInArgument(let executable):
            return "An argument or environment variable for \(executable) holds a NUL byte."
        case .timedOut(let executable, let after):
            return "The program \(executable) did not finish within \(after) and was killed."
        case .outputTooLarge(let executable, let limit):
            return "The program \(executable) wrote more than \(limit) bytes; its output was cut off."
        }
    }

    private static func reason(_ errorNumber: Int32) -> String {
        String(cString: strerror(errorNumber))
    }
}
