import Foundation
import Stratus
import StratusDigest
import StratusHTTP
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A download's temporary file, beside its destination: content lands there (and stays there
/// between the attempts of a resumed download), is checked, and only then is renamed over the
/// destination, so a failed or cancelled download never leaves a partial or wrong file in its
/// place.
///
/// The temporary file is created mode 0600 (a partial copy of a private file is private too) and
/// held under an advisory lock (`flock`) while the download runs. When it is moved into place it
/// takes the destination's mode, or for a new file the mode the process's umask gives. Leftovers
/// of a download that was killed (unlocked `.<name>.<uuid>.<service>-download` files of the same
/// destination) are removed when the next download to that destination starts, so they never
/// accumulate.
package final class DownloadStaging: Sendable {
    /// Where the verified content goes.
    package let destination: URL
    /// The temporary file: `.<name>.<uuid>.<service>-download` in the destination's folder, so
    /// the rename stays on one file system.
    package let temporary: URL
    /// The temporary file, open and locked until ``discard()``.
    private let descriptor: Mutex<Int32>

    /// Removes unlocked leftovers of earlier downloads to the destination, then creates and locks
    /// the temporary file.
    /// - Parameters:
    ///   - destination: Where the content goes in the end.
    ///   - service: A short lowercase tag for the file name, such as "dropbox".
    /// - Throws: ``Stratus/ServiceError/Code/localFile`` when the file cannot be created.
    package init(for destination: URL, service: String) throws {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        self.temporary = folder.appending(path: ".\(name).\(UUID().uuidString).\(service)-download")
        Self.removeLeftovers(in: folder, of: name)
        let file = open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard file >= 0 else {
            throw ServiceError(.localFile, "A temporary file could not be created in \(folder.path): \(String(cString: strerror(errno))).")
        }
        _ = flock(file, LOCK_EX | LOCK_NB)
        descriptor = Mutex(file)
    }

    deinit { discard() }

    /// Removes the temporary file if it is still there and releases its lock (call it in a
    /// `defer`; calling it again does nothing).
    package func discard() {
        descriptor.withLock { file in
            guard file >= 0 else { return }
            try? FileManager.default.removeItem(at: temporary)
            close(file)
            file = -1
        }
    }

    /// Empties the temporary file for a fresh start (a download that failed its check and is
    /// fetched again), keeping it locked.
    /// - Throws: ``Stratus/ServiceError/Code/localFile`` when it cannot be emptied.
    package func restart() throws {
        try descriptor.withLock { file in
            guard file >= 0, ftruncate(file, 0) == 0 else {
                throw ServiceError(.localFile, "The temporary file \(temporary.path) could not be emptied for a new attempt.")
            }
        }
    }

    /// Gives the temporary file the destination's mode (or, for a new file, the umask's), flushes
    /// it to disk and renames it over the destination, unless the task was cancelled; then
    /// flushes the folder, so the rename survives a crash.
    /// - Throws: `CancellationError` when the task is cancelled;
    ///   ``Stratus/ServiceError/Code/localFile`` when the flush or the rename fails.
    package func moveIntoPlace() throws {
        try Task.checkCancellation()
        try descriptor.withLock { file in
            var existing = stat()
            let mode = stat(destination.path, &existing) == 0 ? mode_t(existing.st_mode) & 0o7777 : 0o666 & ~Self.umask()
            guard file >= 0, fchmod(file, mode) == 0, fsync(file) == 0 else {
                throw ServiceError(.localFile, "The download could not be flushed to disk at \(temporary.path): \(String(cString: strerror(errno))).")
            }
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw ServiceError(.localFile, "The download could not be moved into place at \(destination.path): \(reason).")
        }
        let folder = open(destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// The process's file mode creation mask, read from `/proc/self/status` so it is never
    /// changed, not even for an instant (`umask(2)` can only read it by setting it); 022 where
    /// that file does not say.
    package static func umask() -> mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return mask & 0o777
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
            let file = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
            guard file >= 0 else { continue }
            if flock(file, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(file)
        }
    }
}

extension StratusHTTPResponse {
    /// Checks a downloaded body (hashed as it arrived) against the digest and size the service
    /// reports for it.
    /// - Parameters:
    ///   - algorithm: The digest the request asked for in `responseDigests`.
    ///   - expected: The digest the service reports, in the same hex form.
    ///   - size: The size the service reports.
    ///   - path: The file, for messages.
    ///   - service: The service's name for messages, such as "Dropbox".
    ///   - digestName: The digest's name for messages, such as "content_hash".
    /// - Throws: ``Stratus/ServiceError/Code/integrityMismatch`` when the body was not hashed or
    ///   differs in digest or size.
    package func checkDownload(
        _ algorithm: HashAlgorithm,
        expected: String,
        size: Int64,
        path: RemotePath,
        service: String,
        digestName: String
    ) throws {
        guard let actual = bodyDigests[algorithm] else {
            throw ServiceError(.integrityMismatch, "The downloaded content of \(path) could not be hashed; the destination was left as it was.")
        }
        guard actual == expected, bodyLength == size else {
            throw ServiceError(
                .integrityMismatch,
                "The content of \(path) received from \(service) (\(bodyLength) bytes, \(digestName) \(actual)) does not match what \(service) reports (\(size) bytes, \(digestName) \(expected)); the destination was left as it was."
            )
        }
    }
}
