public import Foundation
public import Stratus
import StratusDigest
import StratusFileSystem
public import StratusHTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A download's temporary file, beside its destination: content lands there (and stays there
/// between the attempts of a resumed download), is checked, and only then is renamed over the
/// destination, so a failed or cancelled download never leaves a partial or wrong file in its
/// place. This is how an adapter downloads into a file:
///
/// ```swift
/// let staging = try DownloadStaging(for: destination, service: "webdav")
/// defer { staging.discard() }
/// let response = try await http.execute(
///     StratusHTTPRequest(url: url, responseDigests: [.sha256]),
///     into: .resumableFile(staging.temporary),
///     progress: progress.download()
/// )
/// // ... map a failed answer to an error ...
/// try staging.commit(response, .sha256, expected: reportedHash, size: reportedSize,
///                    path: path, service: "WebDAV", digestName: "SHA-256")
/// ```
///
/// ``commit(_:_:expected:size:path:service:digestName:)`` checks the body's digest and size,
/// then moves it into place; an adapter that checks content its own way (streamed, several
/// digests) calls ``moveIntoPlace()`` only after its check passed.
///
/// The temporary file is created mode 0600 (a partial copy of a private file is private too) and
/// held under an advisory lock (`flock`) while the download runs. When it is moved into place it
/// takes the destination's mode, or for a new file the mode the process's umask gives. Leftovers
/// of a download that was killed (unlocked `.<name>.<uuid>.<service>-download` files of the same
/// destination) are removed when the next download to that destination starts, so they never
/// accumulate.
public final class DownloadStaging: Sendable {
    /// Where the verified content goes.
    public let destination: URL
    /// The temporary file: `.<name>.<uuid>.<service>-download` in the destination's folder, so
    /// the rename stays on one file system.
    public let temporary: URL
    /// The temporary file, open and locked until ``discard()``.
    private let file: Mutex<(descriptor: FileDescriptor, lock: FileLock?)?>

    /// Removes unlocked leftovers of earlier downloads to the destination, then creates and locks
    /// the temporary file.
    /// - Parameters:
    ///   - destination: Where the content goes in the end.
    ///   - service: A short lowercase tag for the file name, such as "dropbox".
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be created.
    public init(for destination: URL, service: String) throws {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        self.temporary = folder.appending(path: ".\(name).\(UUID().uuidString).\(service)-download")
        Self.removeLeftovers(in: folder, of: name)
        do {
            let descriptor = try FileDescriptor.open(
                temporary.path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
            file = Mutex((descriptor: descriptor, lock: try? FileLock.tryAcquire(descriptor)))
        } catch {
            throw ServiceError(
                .localFile, "A temporary file could not be created in \(folder.path): \(error.reason).",
                underlying: error)
        }
    }

    deinit { discard() }

    /// Removes the temporary file if it is still there and releases its lock (call it in a
    /// `defer`; calling it again does nothing).
    public func discard() {
        file.withLock { file in
            guard let open = file else { return }
            _ = unlink(temporary.path)
            open.lock?.release()
            file = nil
        }
    }

    /// Empties the temporary file for a fresh start (a download that failed its check and is
    /// fetched again), keeping it locked.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when it cannot be emptied.
    public func restart() throws {
        try file.withLock { file in
            guard let open = file, (try? open.descriptor.truncate(to: 0)) != nil else {
                throw ServiceError(
                    .localFile, "The temporary file \(temporary.path) could not be emptied for a new attempt.")
            }
        }
    }

    /// Checks a body received into ``temporary`` (through `.resumableFile(staging.temporary)`,
    /// hashed as it arrived) against the digest and size the service reports, and only when
    /// both match moves it into place: verify, then rename.
    /// - Parameters:
    ///   - response: The answer whose body went to ``temporary``.
    ///   - algorithm: The digest the request asked for in `responseDigests`.
    ///   - expected: The digest the service reports, in lowercase hex.
    ///   - size: The size the service reports.
    ///   - path: The file, for messages.
    ///   - service: The service's name for messages, such as "Dropbox".
    ///   - digestName: The digest's name for messages, such as "content_hash".
    /// - Throws: ``/Stratus/ServiceError/Code/integrityMismatch`` when the body was not hashed or
    ///   differs in digest or size (the destination is left as it was, the temporary file kept
    ///   for ``restart()`` or ``discard()``); as ``moveIntoPlace()`` otherwise.
    public func commit(
        _ response: StratusHTTPResponse,
        _ algorithm: HashAlgorithm,
        expected: String,
        size: Int64,
        path: RemotePath,
        service: String,
        digestName: String
    ) throws {
        guard let actual = response.bodyDigests[algorithm] else {
            throw ServiceError(
                .integrityMismatch,
                "The downloaded content of \(path) could not be hashed; the destination was left as it was.")
        }
        guard actual == expected, response.bodyLength == size else {
            throw ServiceError(
                .integrityMismatch,
                "The content of \(path) received from \(service) (\(response.bodyLength) bytes, \(digestName) \(actual)) does not match what \(service) reports (\(size) bytes, \(digestName) \(expected)); the destination was left as it was."
            )
        }
        try moveIntoPlace()
    }

    /// Gives the temporary file the destination's mode (or, for a new file, the umask's), flushes
    /// it to disk and renames it over the destination, unless the task was cancelled; then
    /// flushes the folder, so the rename survives a crash. Call it only once the content passed
    /// its check (or use ``commit(_:_:expected:size:path:service:digestName:)``).
    /// - Throws: `CancellationError` when the task is cancelled;
    ///   ``/Stratus/ServiceError/Code/localFile`` when the flush or the rename fails.
    public func moveIntoPlace() throws {
        try Task.checkCancellation()
        try file.withLock { file in
            let mode = FileMode.forReplacing(destination.path)
            guard let open = file else {
                throw ServiceError(.localFile, "The download at \(temporary.path) was already discarded.")
            }
            do {
                try open.descriptor.setMode(mode)
                try open.descriptor.synchronize()
            } catch let error as FileSystemError {
                throw ServiceError(
                    .localFile, "The download could not be flushed to disk at \(temporary.path): \(error.reason).",
                    underlying: error)
            }
        }
        do {
            try AtomicFile.moveIntoPlace(temporary.path, replacing: destination.path)
        } catch {
            throw ServiceError(
                .localFile, "The download could not be moved into place at \(destination.path): \(error.reason).",
                underlying: error)
        }
    }

    /// Removes `.<name>.<uuid>.<service>-download` files in a folder that no running download
    /// holds locked: what a killed process left behind.
    private static func removeLeftovers(in folder: URL, of name: String) {
        let prefix = ".\(name)."
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix("-download") {
            let middle = entry.dropFirst(prefix.count).prefix(36)
            guard UUID(uuidString: String(middle)) != nil else { continue }
            let path = folder.appending(path: entry).path
            guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW),
                let lock = try? FileLock.tryAcquire(file)
            else { continue }
            unlink(path)
            lock.release()
        }
    }
}
