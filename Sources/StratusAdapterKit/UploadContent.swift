import Foundation
public import Stratus
import StratusDigest
public import StratusHTTP

/// The content of an upload, read in ranges: its size, request bodies for the whole content or
/// a part of it (a file is streamed, never held), and the digests an adapter sends or checks.
///
/// ```swift
/// let content = try UploadContent(source)
/// let sha256 = try content.hexDigests([.sha256])[.sha256]
/// let firstPart = content.body(0..<min(content.size, partSize))
/// ```
public struct UploadContent: Sendable {
    /// Where the bytes come from.
    public let source: UploadSource
    /// How many bytes there are, learned when the content was opened.
    public let size: Int64

    /// Opens a source and learns its size.
    /// - Parameter source: The bytes, or a local file.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when a file cannot be read or is a
    ///   folder.
    public init(_ source: UploadSource) throws {
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

    /// The request body for a range of the content; a file's range is streamed, not held.
    /// - Parameter range: The bytes to send, within `0..<size`.
    public func body(_ range: Range<Int64>) -> HTTPRequestBody {
        switch source {
        case .bytes(let data):
            .bytes(
                data.subdata(in: (data.startIndex + Int(range.lowerBound))..<(data.startIndex + Int(range.upperBound))))
        case .file(let url):
            .file(url, range: range)
        }
    }

    /// Streams a range of the content through a closure, 1 MiB at a time, never holding more.
    /// - Parameters:
    ///   - range: The bytes to read, within `0..<size`.
    ///   - body: Called with each piece and the offset of its first byte.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read or is
    ///   shorter than it was.
    public func read(_ range: Range<Int64>, _ body: (Int64, UnsafeRawBufferPointer) -> Void) throws {
        guard !range.isEmpty else { return }
        switch source {
        case .bytes(let data):
            data.withUnsafeBytes { raw in
                body(
                    range.lowerBound,
                    UnsafeRawBufferPointer(rebasing: raw[Int(range.lowerBound)..<Int(range.upperBound)]))
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

    /// The lowercase hex digests of a range of the content, all read in one streaming pass.
    /// - Parameters:
    ///   - algorithms: The digests to compute.
    ///   - range: The bytes to hash, within `0..<size`; the whole content when `nil`.
    /// - Returns: Each algorithm's digest.
    /// - Throws: ``/Stratus/ServiceError/Code/unsupported`` for an algorithm StratusDigest cannot
    ///   compute; ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read or is
    ///   shorter than it was.
    public func hexDigests(_ algorithms: Set<HashAlgorithm>, of range: Range<Int64>? = nil) throws -> [HashAlgorithm:
        String]
    {
        var digests: [any IncrementalDigest] = []
        for algorithm in algorithms {
            do {
                digests.append(try algorithm.makeDigest())
            } catch {
                throw ServiceError(
                    .unsupported, "Stratus cannot compute the \(algorithm) digest of an upload.", underlying: error)
            }
        }
        try read(range ?? 0..<size) { _, bytes in
            for digest in digests { digest.update(bytes) }
        }
        return Dictionary(uniqueKeysWithValues: digests.map { ($0.algorithm, $0.finalizeHex()) })
    }
}
