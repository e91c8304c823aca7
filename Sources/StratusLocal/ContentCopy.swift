import Foundation
import Stratus
import StratusDigest
import StratusFileSystem

/// Moves content into one or more open files in 1 MiB pieces, hashing it on the way,
/// reporting progress after each piece and stopping between pieces when the task is cancelled.
///
/// One copy is used by one piece of work at a time (it owns a digest, which is not thread-safe).
struct ContentCopy {
    /// The largest piece read or written at once: 1 MiB.
    static let bufferSize = 1_048_576

    private let destinations: [FileDescriptor]
    private let digest: any IncrementalDigest
    private let expectedSize: Int64?
    private let progress: ProgressHandler?
    private let cancellation: CancellationFlag
    private let cancelledMessage: String
    private var copied: Int64 = 0
    private var reported = false

    /// Prepares a copy.
    /// - Parameters:
    ///   - destinations: The files that receive every byte, in order.
    ///   - algorithm: The hash computed over the content.
    ///   - expectedSize: The size reported as the total in progress reports, when known.
    ///   - progress: Receives the bytes copied so far after every piece.
    ///   - cancellation: Checked before every piece.
    ///   - cancelledMessage: The message of the ``ServiceError/Code/cancelled`` error thrown
    ///     when the flag is set.
    /// - Throws: ``/StratusDigest/DigestError`` when `StratusDigest` cannot compute the algorithm.
    init(
        into destinations: [FileDescriptor],
        hashing algorithm: HashAlgorithm,
        expectedSize: Int64?,
        progress: ProgressHandler?,
        cancellation: CancellationFlag,
        cancelledMessage: String
    ) throws(DigestError) {
        self.destinations = destinations
        self.digest = try algorithm.makeDigest()
        self.expectedSize = expectedSize
        self.progress = progress
        self.cancellation = cancellation
        self.cancelledMessage = cancelledMessage
    }

    /// Copies everything a file holds from its current offset to its end.
    /// - Throws: ``FileSystemError`` when reading or writing fails, ``ServiceError`` (`cancelled`)
    ///   when the task is cancelled.
    mutating func copyAll(from source: FileDescriptor) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            try cancellation.check(cancelledMessage)
            let count = try source.read(into: buffer)
            if count == 0 { return }
            try append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Copies bytes held in memory.
    /// - Throws: ``FileSystemError`` when writing fails, ``ServiceError`` (`cancelled`) when the
    ///   task is cancelled.
    mutating func copyAll(from data: Data) throws {
        var offset = data.startIndex
        while offset < data.endIndex {
            try cancellation.check(cancelledMessage)
            let end = min(offset + Self.bufferSize, data.endIndex)
            try data[offset..<end].withUnsafeBytes { try append($0) }
            offset = end
        }
    }

    /// Finishes the copy: makes sure at least one progress report was sent (an empty content
    /// gets a single report of zero bytes) and returns what was copied.
    /// - Returns: The number of bytes copied and their hash in lowercase hexadecimal.
    mutating func finish() -> (size: Int64, hash: String) {
        if !reported {
            progress?(TransferProgress(completedBytes: copied, totalBytes: copied))
        }
        return (copied, digest.finalizeHex())
    }

    private mutating func append(_ piece: UnsafeRawBufferPointer) throws {
        digest.update(piece)
        for destination in destinations {
            try destination.write(piece)
        }
        copied += Int64(piece.count)
        if let progress {
            let total = expectedSize.map { max($0, copied) }
            progress(TransferProgress(completedBytes: copied, totalBytes: total))
            reported = true
        }
    }
}
