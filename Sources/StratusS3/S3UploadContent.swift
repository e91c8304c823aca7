import Foundation
import Stratus
import StratusDigest
import StratusHTTP
import Synchronization

/// The content of an upload, read in ranges, with the digests S3 requests carry.
///
/// S3-local for now: StratusDropbox has the same reader (`UploadContent`) internally; the two
/// can move into a shared module.
struct S3UploadContent: Sendable {
    let source: UploadSource
    let size: Int64

    /// The digests of one range: SHA-256 (signed as `x-amz-content-sha256`) and MD5 (sent as
    /// `Content-MD5`, and a part's ETag).
    struct RangeDigests: Sendable, Equatable {
        var range: Range<Int64>
        var sha256: String
        var md5: [UInt8]

        var md5Hex: String { Hex.encode(md5) }
        var md5Base64: String { Data(md5).base64EncodedString() }
    }

    /// Opens a source and learns its size.
    /// - Throws: ``Stratus/ServiceError/Code/localFile`` when a file cannot be read.
    init(_ source: UploadSource) throws {
        self.source = source
        switch source {
        case .bytes(let data):
            size = Int64(data.count)
        case .file(let url):
            do {
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                guard (attributes[.type] as? FileAttributeType) != .typeDirectory,
                      let number = attributes[.size] as? NSNumber
                else {
                    throw ServiceError(.localFile, "\(url.path) is not a readable file.")
                }
                size = number.int64Value
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.localFile, "\(url.path) cannot be read: \(error.localizedDescription)")
            }
        }
    }

    /// The request body for a range.
    func body(_ range: Range<Int64>) -> HTTPRequestBody {
        switch source {
        case .bytes(let data):
            .bytes(data.subdata(in: (data.startIndex + Int(range.lowerBound))..<(data.startIndex + Int(range.upperBound))))
        case .file(let url):
            .file(url, range: range)
        }
    }

    /// Reads the content once and digests it whole (SHA-256) and in ranges of `partSize`.
    /// - Returns: The whole content's SHA-256 (hex) and each range's digests.
    /// - Throws: ``Stratus/ServiceError/Code/localFile`` when the file cannot be read or is
    ///   shorter than it was; `cancelled` when the task is cancelled.
    func digests(partSize: Int64) throws -> (sha256: String, parts: [RangeDigests]) {
        let whole = SHA256Digest()
        var parts: [RangeDigests] = []
        var start: Int64 = 0
        repeat {
            let end = min(size, start + partSize)
            let sha = SHA256Digest()
            let md5 = MD5Digest()
            try read(start..<end) { bytes in
                whole.update(bytes)
                sha.update(bytes)
                md5.update(bytes)
            }
            parts.append(RangeDigests(range: start..<end, sha256: Hex.encode(sha.finalize()), md5: md5.finalize()))
            start = end
            if Task.isCancelled { throw ServiceError(.cancelled, "The upload was cancelled.") }
        } while start < size
        return (Hex.encode(whole.finalize()), parts)
    }

    /// Streams a range through a closure, 1 MiB at a time.
    private func read(_ range: Range<Int64>, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        guard !range.isEmpty else { return }
        switch source {
        case .bytes(let data):
            data.withUnsafeBytes { raw in
                body(UnsafeRawBufferPointer(rebasing: raw[Int(range.lowerBound)..<Int(range.upperBound)]))
            }
        case .file(let url):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(range.lowerBound))
                var offset = range.lowerBound
                while offset < range.upperBound {
                    let want = Int(min(Int64(Digest.fileReadSize), range.upperBound - offset))
                    guard let piece = try handle.read(upToCount: want), !piece.isEmpty else {
                        throw ServiceError(.localFile, "\(url.path) became shorter while it was being uploaded.")
                    }
                    piece.withUnsafeBytes { body($0) }
                    offset += Int64(piece.count)
                }
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.localFile, "\(url.path) cannot be read: \(error.localizedDescription)")
            }
        }
    }
}

/// Reports transfer progress that never goes backwards, across retries and parts.
///
/// S3-local copy of StratusDropbox's `MonotonicProgress`; both can move into a shared module.
final class S3Progress: Sendable {
    private let handler: ProgressHandler?
    private let total: Int64?
    private let last = Mutex<Int64>(-1)

    init(_ handler: ProgressHandler?, total: Int64?) {
        self.handler = handler
        self.total = total
    }

    /// Reports `completed` bytes if that is more than reported before.
    func report(_ completed: Int64, total reportedTotal: Int64? = nil) {
        guard let handler else { return }
        let isNew = last.withLock { last in
            guard completed > last else { return false }
            last = completed
            return true
        }
        if isNew { handler(TransferProgress(completedBytes: completed, totalBytes: total ?? reportedTotal)) }
    }

    /// An HTTP progress callback for a request body that starts at `base`.
    func upload(from base: Int64) -> (@Sendable (HTTPProgress) -> Void)? {
        guard handler != nil else { return nil }
        return { [self] progress in report(base + progress.bytesSent) }
    }
}
