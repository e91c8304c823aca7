import Foundation
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a 2xx body to a temporary file beside the destination; other answers' bodies are kept
/// in memory (truncated at a limit) and the destination is not touched.
final class FileSink: ResponseSink {
    private let destination: URL
    private let errorBodyLimit: Int
    private var temporary: (descriptor: Int32, url: URL)?
    private var writeback: EarlyWriteback?
    private var errorBody = Data()
    private(set) var isContent = false

    init(destination: URL, errorBodyLimit: Int) {
        self.destination = destination
        self.errorBodyLimit = errorBodyLimit
    }

    func headersComplete(status: Int, headers: StratusHTTPHeaders) -> StratusHTTPClientError? {
        isContent = (200..<300).contains(status)
        guard isContent, temporary == nil else { return nil }
        let folder = destination.deletingLastPathComponent()
        let url = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            return StratusHTTPClientError(
                .localFile, "Cannot create a temporary file in \(folder.path): \(String(cString: strerror(errno))).")
        }
        temporary = (descriptor, url)
        writeback = EarlyWriteback(descriptor: descriptor, offset: 0)
        return nil
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> SinkVerdict {
        guard let temporary else {
            let room = max(0, errorBodyLimit - errorBody.count)
            errorBody.append(contentsOf: bytes.prefix(room))
            return .accepted
        }
        guard writeAll(bytes, to: temporary.descriptor) else {
            return .fail(
                StratusHTTPClientError(
                    .localFile, "Writing \(temporary.url.path) failed: \(String(cString: strerror(errno)))."))
        }
        writeback?.wrote(bytes.count)
        return .accepted
    }

    func finish() -> SinkOutput {
        defer { temporary = nil }
        guard let temporary else { return SinkOutput(body: errorBody) }
        return SinkOutput(
            pendingFile: PendingFile(
                descriptor: temporary.descriptor, temporary: temporary.url, destination: destination))
    }

    func abandon() {
        if let temporary {
            close(temporary.descriptor)
            unlink(temporary.url.path)
        }
        temporary = nil
    }
}

/// A completely received body in a temporary file, waiting to be flushed and moved into place
/// by the caller's task (so the event-loop thread never waits for a disk flush).
struct PendingFile: Sendable {
    let descriptor: Int32
    let temporary: URL
    let destination: URL

    /// Flushes the file to disk and renames it over the destination.
    /// - Throws: ``StratusHTTPClientError`` (`localFile`); the temporary file is removed either way.
    func commit() throws(StratusHTTPClientError) {
        defer { close(descriptor) }
        guard SystemCall.retryingOnInterrupt({ fsync(descriptor) }) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw StratusHTTPClientError(.localFile, "Flushing \(temporary.path) to disk failed: \(reason).")
        }
        do {
            // Renames, then flushes the folder so the rename itself survives a crash.
            try AtomicFile.moveIntoPlace(temporary.path, replacing: destination.path)
        } catch {
            unlink(temporary.path)
            throw StratusHTTPClientError(
                .localFile, "Moving the download into place at \(destination.path) failed: \(error.reason).")
        }
    }

    /// Removes the temporary file without touching the destination.
    func discard() {
        close(descriptor)
        unlink(temporary.path)
    }
}
