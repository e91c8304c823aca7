import Foundation
import Stratus
import StratusDigest
import StratusHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A download's temporary file, beside its destination: content lands there (and stays there
/// between the attempts of a resumed download), is checked, and only then is renamed over the
/// destination, so a failed or cancelled download never leaves a partial or wrong file in its
/// place.
package struct DownloadStaging: Sendable {
    /// Where the verified content goes.
    package let destination: URL
    /// The temporary file: `.<name>.<uuid>.<service>-download` in the destination's folder, so
    /// the rename stays on one file system.
    package let temporary: URL

    /// Names a temporary file for a destination; nothing is created yet.
    /// - Parameters:
    ///   - destination: Where the content goes in the end.
    ///   - service: A short lowercase tag for the file name, such as "dropbox".
    package init(for destination: URL, service: String) {
        self.destination = destination
        self.temporary = destination.deletingLastPathComponent()
            .appending(path: ".\(destination.lastPathComponent).\(UUID().uuidString).\(service)-download")
    }

    /// Removes the temporary file if it is still there (call it in a `defer`).
    package func discard() {
        try? FileManager.default.removeItem(at: temporary)
    }

    /// Flushes the temporary file to disk and renames it over the destination, unless the task
    /// was cancelled; then flushes the folder, so the rename survives a crash.
    /// - Throws: `CancellationError` when the task is cancelled;
    ///   ``Stratus/ServiceError/Code/localFile`` when the flush or the rename fails.
    package func moveIntoPlace() throws {
        try Task.checkCancellation()
        let file = open(temporary.path, O_RDONLY | O_CLOEXEC)
        guard file >= 0, fsync(file) == 0 else {
            let reason = String(cString: strerror(errno))
            if file >= 0 { close(file) }
            throw ServiceError(.localFile, "The download could not be flushed to disk at \(temporary.path): \(reason).")
        }
        close(file)
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
}

extension HTTPResponse {
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
        _ algorithm: DigestAlgorithm,
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
