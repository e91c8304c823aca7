import Foundation
import Stratus
import StratusDigest
import StratusHTTP
import Synchronization

/// The content of an upload, read in ranges: for request bodies and for the `content_hash`
/// each request carries.
struct UploadContent: Sendable {
    let source: UploadSource
    let size: Int64

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

    /// The request body for a range of the content.
    func body(_ range: Range<Int64>) -> HTTPRequestBody {
        switch source {
        case .bytes(let data):
            return .bytes(data.subdata(in: (data.startIndex + Int(range.lowerBound))..<(data.startIndex + Int(range.upperBound))))
        case .file(let url):
            return .file(url, range: range)
        }
    }

    /// Streams a range of the content through digests, 1 MiB at a time, never holding more.
    /// - Parameters:
    ///   - range: The bytes to read.
    ///   - body: Called with each piece and its offset.
    /// - Throws: ``Stratus/ServiceError/Code/localFile`` when the file cannot be read or is
    ///   shorter than it was.
    func read(_ range: Range<Int64>, _ body: (Int64, UnsafeRawBufferPointer) -> Void) throws {
        switch source {
        case .bytes(let data):
            data.withUnsafeBytes { raw in
                body(range.lowerBound, UnsafeRawBufferPointer(rebasing: raw[Int(range.lowerBound)..<Int(range.upperBound)]))
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
                    piece.withUnsafeBytes { body(offset, $0) }
                    offset += Int64(piece.count)
                }
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.localFile, "\(url.path) cannot be read: \(error.localizedDescription)")
            }
        }
    }

    /// The Dropbox `content_hash` of a range.
    func contentHash(_ range: Range<Int64>) throws -> String {
        let digest = DropboxContentHash()
        try read(range) { _, bytes in digest.update(bytes) }
        return Hex.encode(digest.finalize())
    }
}

/// Reports transfer progress that never goes backwards, across retries and chunks.
final class MonotonicProgress: Sendable {
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

    /// An HTTP progress callback for a response body.
    func download() -> (@Sendable (HTTPProgress) -> Void)? {
        guard handler != nil else { return nil }
        return { [self] progress in report(progress.bytesReceived, total: progress.bytesToReceive) }
    }
}
