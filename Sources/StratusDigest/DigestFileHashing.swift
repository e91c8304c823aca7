public import Foundation
public import Stratus

extension Digest {
    /// How many bytes ``hash(fileAt:algorithms:)`` reads at a time: 1 MiB.
    public static let fileReadSize = 1_048_576

    /// Computes several digests of a file in one pass, reading it in 1 MiB pieces.
    ///
    /// - Parameters:
    ///   - url: A `file:` URL naming the file.
    ///   - algorithms: The digests to compute; repeats are computed once.
    /// - Returns: Each requested algorithm's digest as lowercase hexadecimal.
    /// - Throws: ``DigestError`` if the URL is not a file URL, if an algorithm is not one this
    ///   module computes, or carrying the path and the `errno` value if the file cannot be opened
    ///   or read.
    public static func hash(fileAt url: URL, algorithms: [HashAlgorithm]) throws(DigestError) -> [HashAlgorithm: String]
    {
        guard url.isFileURL else {
            throw DigestError(message: "Cannot hash a URL that is not a file URL", path: url.absoluteString)
        }
        var digests: [any IncrementalDigest] = []
        for algorithm in Set(algorithms) {
            digests.append(try algorithm.makeDigest())
        }
        guard !digests.isEmpty else {
            return [:]
        }
        try feed(fileAt: url, into: digests)

        var result: [HashAlgorithm: String] = [:]
        for digest in digests {
            result[digest.algorithm] = digest.finalizeHex()
        }
        return result
    }

    /// Feeds a whole file to digests that stay open (to go on with more bytes, as a resumed
    /// download does), reading it in 1 MiB pieces.
    ///
    /// - Parameters:
    ///   - url: A `file:` URL naming the file.
    ///   - digests: The digests to update, in the file's byte order.
    /// - Returns: How many bytes the file held.
    /// - Throws: ``DigestError`` carrying the path and the `errno` value if the file cannot be
    ///   opened or read.
    @discardableResult
    public static func feed(fileAt url: URL, into digests: [any IncrementalDigest]) throws(DigestError) -> Int64 {
        let file = try ReadOnlyFile(opening: url)
        defer { file.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: fileReadSize, alignment: 16)
        defer { buffer.deallocate() }
        var length: Int64 = 0
        while true {
            let readCount = try file.read(into: buffer)
            if readCount == 0 {
                return length
            }
            let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<readCount])
            for digest in digests {
                digest.update(piece)
            }
            length += Int64(readCount)
        }
    }
}
