#if canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#elseif canImport(Darwin)
    public import Darwin
#endif

/// An exclusive advisory lock (`flock(2)`) on a file, held until ``release()`` or until the
/// lock goes away; the kernel releases it if the process dies.
///
/// `flock` locks belong to an open file description, so two locks in one process exclude each
/// other exactly as two processes do (POSIX `fcntl` locks would not).
public final class FileLock: Sendable {
    /// The locked file.
    public let file: FileDescriptor

    private init(file: FileDescriptor) {
        self.file = file
    }

    deinit {
        release()
    }

    /// Takes the lock on an open file if nobody holds it.
    /// - Parameter file: The file.
    /// - Returns: The lock, or `nil` when another open file description holds it.
    /// - Throws: ``FileSystemError`` when `flock(2)` fails for another reason.
    public static func tryAcquire(_ file: FileDescriptor) throws(FileSystemError) -> FileLock? {
        let result = SystemCall.retryingOnInterrupt { flock(file.raw, LOCK_EX | LOCK_NB) }
        if result == 0 { return FileLock(file: file) }
        if errno == EWOULDBLOCK { return nil }
        throw FileSystemError.last("flock", file.path)
    }

    /// Opens (creating it when missing) and locks a lock file, waiting on the current thread
    /// until the lock is free.
    /// - Parameters:
    ///   - path: The lock file.
    ///   - mode: The permissions of a lock file this call creates.
    /// - Returns: The lock.
    /// - Throws: ``FileSystemError`` when the file cannot be opened or locked.
    public static func acquire(_ path: String, mode: mode_t = 0o644) throws(FileSystemError) -> FileLock {
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT, mode: mode)
        try SystemCall.checked("flock", path) { flock(file.raw, LOCK_EX) }
        return FileLock(file: file)
    }

    /// Opens (creating it when missing) and locks a lock file, polling in short sleeps so the
    /// wait ends at `timeout` or when the task is cancelled, and never blocks a thread.
    /// - Parameters:
    ///   - path: The lock file.
    ///   - flags: Extra `open(2)` flags, such as `O_NOFOLLOW`.
    ///   - mode: The permissions of a lock file this call creates.
    ///   - timeout: How long to wait for a lock someone else holds.
    /// - Returns: The lock, or `nil` when it was still held at `timeout`.
    /// - Throws: ``FileSystemError`` when the file cannot be opened or locked;
    ///   `CancellationError` when the task is cancelled while waiting.
    public static func acquire(
        _ path: String,
        flags: Int32 = 0,
        mode: mode_t = 0o644,
        timeout: Duration
    ) async throws -> FileLock? {
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT | flags, mode: mode)
        let deadline = ContinuousClock.now + timeout
        while true {
            if let lock = try tryAcquire(file) { return lock }
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: .milliseconds(15))
        }
    }

    /// Runs a body while holding the lock on a lock file, waiting on the current thread until
    /// it is free; the lock is released when the body returns or throws.
    /// - Parameters:
    ///   - path: The lock file, created when missing.
    ///   - body: The work; it should not suspend.
    /// - Returns: What the body returns.
    /// - Throws: ``FileSystemError`` when the lock cannot be taken, or what the body throws.
    public static func withLock<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
        let lock = try acquire(path)
        defer { lock.release() }
        return try body()
    }

    /// Releases the lock (the descriptor closes when the last reference to the file goes);
    /// releasing again does nothing harmful.
    public func release() {
        _ = flock(file.raw, LOCK_UN)
    }
}
