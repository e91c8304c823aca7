public import Stratus

/// Dropbox's content hash, computed incrementally.
///
/// The content is split into blocks of ``blockSize`` bytes (the last block may be shorter) and
/// the result is the SHA-256 digest of the concatenated raw SHA-256 digests of the blocks. Empty
/// content has no blocks, so its hash is the SHA-256 digest of nothing.
///
/// Pieces may be any size and may straddle block boundaries. Nothing is buffered: each piece
/// feeds a running SHA-256 of the current block, and a count of the block's bytes says when the
/// block is complete.
public final class DropboxContentHash: IncrementalDigest {
    /// The block size Dropbox uses: 4 MiB.
    public static let blockSize = 4_194_304

    /// The SHA-256 of the block being read; restarted after each block.
    private let blockDigest = EVPDigest(openSSLName: "SHA256")
    /// The SHA-256 over the digests of the completed blocks.
    private let digestOfBlockDigests = EVPDigest(openSSLName: "SHA256")
    /// How many bytes of the current block have been fed.
    private var bytesInCurrentBlock = 0
    /// The finished hash, once ``finalize()`` has run.
    private var finishedHash: [UInt8]?

    /// Starts an empty content hash.
    public init() {}

    /// Always ``Stratus/HashAlgorithm/dropboxContentHash``.
    public var algorithm: HashAlgorithm { .dropboxContentHash }

    /// Feeds the next piece of the content; ignored after ``finalize()``.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard finishedHash == nil else {
            return
        }
        var offset = 0
        while offset < bytes.count {
            let roomInBlock = Self.blockSize - bytesInCurrentBlock
            let pieceEnd = offset + min(roomInBlock, bytes.count - offset)
            blockDigest.update(UnsafeRawBufferPointer(rebasing: bytes[offset..<pieceEnd]))
            bytesInCurrentBlock += pieceEnd - offset
            offset = pieceEnd
            if bytesInCurrentBlock == Self.blockSize {
                completeCurrentBlock()
            }
        }
    }

    /// Finishes the computation and returns the 32 hash bytes; later calls return the same bytes.
    public func finalize() -> [UInt8] {
        if let finishedHash {
            return finishedHash
        }
        if bytesInCurrentBlock > 0 {
            completeCurrentBlock()
        }
        let hash = digestOfBlockDigests.finalize()
        finishedHash = hash
        return hash
    }

    /// Adds the current block's digest to the outer digest and starts the next block.
    private func completeCurrentBlock() {
        let digest = blockDigest.finalize()
        digest.withUnsafeBytes { digestOfBlockDigests.update($0) }
        blockDigest.reset()
        bytesInCurrentBlock = 0
    }
}
