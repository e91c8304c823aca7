import Foundation
import Stratus
import StratusDigest

#if canImport(Glibc)
    import Glibc
#endif

/// What the read callback answers libcurl.
enum ReadVerdict {
    /// This many bytes were copied; 0 means the body is complete.
    case bytes(Int)
    /// Nothing is ready yet; the transfer is paused until the producer offers more.
    case pause
    /// The body cannot be produced; the transfer fails with this error.
    case fail(StratusHTTPClientError)
}

/// Produces a request body for libcurl, hashing it as it goes. Used on the event-loop thread
/// only (the stream pump it may hold is thread-safe itself).
final class RequestBodySource {
    private enum Kind {
        case bytes(Data)
        case file(descriptor: Int32, start: Int64, length: Int64)
        case stream(StreamBodyPump)
    }

    private let kind: Kind
    private let digestAlgorithms: Set<HashAlgorithm>
    private var digests: [any IncrementalDigest]
    private var digestsAreValid = true
    private var position: Int64 = 0

    /// The body's size when known in advance.
    let length: Int64?

    /// Opens a body. Files are opened here, so a missing file fails before anything is sent.
    /// - Throws: ``StratusHTTPClientError`` (`localFile`, `invalidRequest`).
    init(_ body: HTTPRequestBody, digests algorithms: Set<HashAlgorithm>) throws {
        self.digestAlgorithms = algorithms
        self.digests = try algorithms.makeDigests()
        switch body {
        case .empty:
            kind = .bytes(Data())
            length = 0
        case .bytes(let data):
            kind = .bytes(data)
            length = Int64(data.count)
        case .file(let url, let range):
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw StratusHTTPClientError(
                    .localFile, "Cannot open \(url.path) for reading: \(String(cString: strerror(errno))).")
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                Glibc.close(descriptor)
                throw StratusHTTPClientError(
                    .localFile, "Cannot read the size of \(url.path): \(String(cString: strerror(errno))).")
            }
            let size = Int64(info.st_size)
            let span = range ?? 0..<size
            guard span.lowerBound >= 0, span.upperBound <= size else {
                Glibc.close(descriptor)
                throw StratusHTTPClientError(
                    .invalidRequest, "The byte range \(span) is outside \(url.path), which has \(size) bytes.")
            }
            kind = .file(descriptor: descriptor, start: span.lowerBound, length: span.upperBound - span.lowerBound)
            length = span.upperBound - span.lowerBound
        case .stream(let chunks, let declaredLength):
            kind = .stream(StreamBodyPump(chunks))
            length = declaredLength
        }
    }

    /// Starts producing a streamed body; `wake` is called when a paused transfer can go on.
    func start(wake: @escaping @Sendable () -> Void) {
        if case .stream(let pump) = kind { pump.start(wake: wake) }
    }

    /// Copies the next bytes into libcurl's buffer.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadVerdict {
        let verdict: ReadVerdict
        switch kind {
        case .bytes(let data):
            let count = min(buffer.count, data.count - Int(position))
            if count > 0 {
                data.withUnsafeBytes { source in
                    let start = source.baseAddress.map { $0 + Int(position) }
                    if let start, let destination = buffer.baseAddress {
                        destination.copyMemory(from: start, byteCount: count)
                    }
                }
            }
            verdict = .bytes(max(count, 0))
        case .file(let descriptor, let start, let length):
            let wanted = Int(min(Int64(buffer.count), length - position))
            guard wanted > 0 else { return .bytes(0) }
            let got = pread(descriptor, buffer.baseAddress, wanted, off_t(start + position))
            if got < 0 {
                return .fail(
                    StratusHTTPClientError(
                        .localFile, "Reading the request body failed: \(String(cString: strerror(errno)))."))
            }
            if got == 0 {
                return .fail(
                    StratusHTTPClientError(
                        .localFile, "The request body file ended early; it changed while it was being sent."))
            }
            verdict = .bytes(got)
        case .stream(let pump):
            verdict = pump.read(into: buffer)
        }
        if case .bytes(let count) = verdict, count > 0 {
            let sent = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<count])
            for digest in digests { digest.update(sent) }
            position += Int64(count)
        }
        return verdict
    }

    /// Moves back to an offset so libcurl can send the body again (after a redirect or a
    /// rejected first attempt).
    /// - Returns: Whether the body can be sent from there.
    func rewind(to offset: Int64) -> Bool {
        if case .stream = kind { return offset == position }
        guard offset >= 0, offset <= (length ?? 0) else { return false }
        if offset == 0 {
            // Computable: the same algorithms made digests when the source opened.
            digests = digestAlgorithms.compactMap { try? $0.makeDigest() }
            digestsAreValid = true
        } else if offset != position {
            digestsAreValid = false
        }
        position = offset
        return true
    }

    /// The digests of what was sent, when they cover the whole body exactly once.
    func finishDigests() -> [HashAlgorithm: String] {
        guard digestsAreValid else { return [:] }
        var result: [HashAlgorithm: String] = [:]
        for digest in digests { result[digest.algorithm] = digest.finalizeHex() }
        return result
    }

    /// Releases the file or stops the producer.
    func close() {
        switch kind {
        case .file(let descriptor, _, _): Glibc.close(descriptor)
        case .stream(let pump): pump.stop()
        case .bytes: break
        }
    }
}
