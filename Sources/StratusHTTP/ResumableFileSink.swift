import Foundation
import Stratus
import StratusDigest

#if canImport(Glibc)
    import Glibc
#endif

/// The first bytes of the content that were already in a file before this answer's body (a
/// resumed download): how many, and their digests, which the transfer goes on updating.
struct ResumedContent {
    let length: Int64
    let digests: [any IncrementalDigest]
}

/// Writes a 2xx body into a file that may already hold the content's first bytes, and keeps
/// what arrived when a transfer fails, so the same request sent again continues from there
/// (``HTTPResponseDestination/resumableFile(_:)``).
///
/// A 206 answer must continue exactly where the file stops; a 200 answer is the whole content
/// and replaces what the file held; a 416 answer (nothing after the file's bytes) empties the
/// file for a fresh start; any other answer leaves the file as it was.
final class ResumableFileSink: ResponseSink {
    /// How many bytes the file held when the request was made (the `Range` it asked for).
    let existingLength: Int64
    private let url: URL
    private let descriptor: Int32
    private let existingDigests: [any IncrementalDigest]
    private let errorBodyLimit: Int
    private var errorBody = Data()
    private var isClosed = false
    private var writeback: EarlyWriteback?
    private(set) var isContent = false
    private(set) var resumedContent: ResumedContent?

    /// Opens (or creates) the file and hashes the bytes it already holds, in the caller's task
    /// so the event-loop thread never reads a file.
    /// - Parameters:
    ///   - url: The file.
    ///   - digests: The algorithms the request asked for.
    ///   - errorBodyLimit: How much of a non-2xx body to keep in memory.
    /// - Throws: ``StratusHTTPClientError/Code/localFile`` when the file cannot be opened or read.
    init(url: URL, digests: Set<HashAlgorithm>, errorBodyLimit: Int) throws(StratusHTTPClientError) {
        let existing = try digests.makeDigests()
        // Private while partial: whoever moves it into place gives it its final mode.
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StratusHTTPClientError(.localFile, "Cannot open \(url.path): \(String(cString: strerror(errno))).")
        }
        let length: Int64
        do {
            length = try Digest.feed(fileAt: url, into: existing)
        } catch {
            close(descriptor)
            throw StratusHTTPClientError(.localFile, "Cannot read \(url.path).", underlying: error)
        }
        self.url = url
        self.descriptor = descriptor
        self.existingLength = length
        self.existingDigests = existing
        self.errorBodyLimit = errorBodyLimit
    }

    deinit { closeFile() }

    func headersComplete(status: Int, headers: StratusHTTPHeaders) -> StratusHTTPClientError? {
        isContent = (200..<300).contains(status)
        if status == 416, existingLength > 0 {
            // Nothing follows the bytes the file holds: start over (the client asks again).
            return ftruncate(descriptor, 0) == 0 ? nil : fileError("truncate")
        }
        guard isContent else { return nil }
        if status == 206 {
            guard let range = Self.contentRange(headers["Content-Range"]), range.first == existingLength else {
                isContent = false
                return StratusHTTPClientError(
                    .invalidResponse,
                    "A resumed download did not continue at byte \(existingLength) (Content-Range: \(Redaction.serverText(headers["Content-Range"] ?? "none", secrets: [], limit: 100))); the file was left as it was."
                )
            }
            // The server chose both numbers: a length other than the range's is refused before
            // it is added to anything (progress counts the resumed bytes in).
            if let length = headers["Content-Length"], Int64(length) != range.last - range.first + 1 {
                isContent = false
                return StratusHTTPClientError(
                    .invalidResponse,
                    "A resumed download announced \(Redaction.serverText(length, secrets: [], limit: 40)) bytes for Content-Range \(Redaction.serverText(headers["Content-Range"] ?? "", secrets: [], limit: 100)); the file was left as it was."
                )
            }
            resumedContent = ResumedContent(length: existingLength, digests: existingDigests)
            writeback = EarlyWriteback(descriptor: descriptor, offset: existingLength)
            return lseek(descriptor, off_t(existingLength), SEEK_SET) < 0 ? fileError("seek in") : nil
        }
        // The whole content: what the file held is replaced.
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { return fileError("truncate") }
        writeback = EarlyWriteback(descriptor: descriptor, offset: 0)
        return nil
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> SinkVerdict {
        guard isContent else {
            let room = max(0, errorBodyLimit - errorBody.count)
            errorBody.append(contentsOf: bytes.prefix(room))
            return .accepted
        }
        guard writeAll(bytes, to: descriptor) else { return .fail(fileError("write")) }
        writeback?.wrote(bytes.count)
        return .accepted
    }

    func finish() -> SinkOutput {
        closeFile()
        return isContent ? SinkOutput(file: url) : SinkOutput(body: errorBody)
    }

    /// Keeps the file: what arrived is the start of the next attempt.
    func abandon() {
        closeFile()
    }

    private func closeFile() {
        guard !isClosed else { return }
        isClosed = true
        close(descriptor)
    }

    private func fileError(_ verb: String) -> StratusHTTPClientError {
        StratusHTTPClientError(.localFile, "Cannot \(verb) \(url.path): \(String(cString: strerror(errno))).")
    }

    /// The range of `bytes first-last/total` (or `bytes first-last/*`): `nil` unless
    /// `0 <= first <= last` and, with a known total, `last < total`, so `last - first + 1`
    /// cannot overflow.
    static func contentRange(_ header: String?) -> (first: Int64, last: Int64, total: Int64?)? {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let parts = header.dropFirst(6).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let trim = { (text: Substring) in text.trimmingCharacters(in: .whitespaces) }
        guard bounds.count == 2, let first = Int64(trim(bounds[0])), let last = Int64(trim(bounds[1])),
            first >= 0, first <= last, last < Int64.max
        else { return nil }
        if trim(parts[1]) == "*" { return (first, last, nil) }
        guard let total = Int64(trim(parts[1])), last < total else { return nil }
        return (first, last, total)
    }
}
