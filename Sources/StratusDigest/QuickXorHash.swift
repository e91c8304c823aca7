import Foundation
public import Stratus

/// OneDrive's QuickXorHash, computed incrementally.
///
/// The hash is 160 bits wide. Byte `i` of the content is XORed into the bits starting at bit
/// `(11 × i) mod 160` (wrapping round the end), and when the content ends its length, as a 64-bit
/// little-endian number, is XORed into the last 8 of the 20 bytes. Microsoft Graph reports the
/// 20 bytes in base64 (``base64(_:)``); ``/Stratus/ContentHash`` stores them in hexadecimal like every
/// other hash.
///
/// Since 160 × 11 is a multiple of 160, bytes 160 apart land on the same bits, and XOR is
/// associative: each piece is XORed into 160 lanes (one per position modulo 160), eight bytes at
/// a time, and the lanes are spread over the 160 bits only once, in ``finalize()``.
public final class QuickXorHash: IncrementalDigest {
    /// The hash width in bits.
    public static let widthInBits = 160
    /// How far each byte's bits move from the previous byte's, in bits.
    public static let shift = 11
    /// The number of hash bytes: 20.
    public static let byteCount = widthInBits / 8

    /// The content bytes XORed together by position modulo 160.
    private var lanes = [UInt8](repeating: 0, count: QuickXorHash.widthInBits)
    /// How many bytes have been fed, modulo 2^64 as Microsoft's definition counts them.
    private var length: UInt64 = 0
    /// The lane the next byte goes to.
    private var nextLane = 0
    /// The finished hash, once ``finalize()`` has run.
    private var finishedHash: [UInt8]?

    /// Starts an empty hash.
    public init() {}

    /// Always ``Stratus/HashAlgorithm/quickXorHash``.
    public var algorithm: HashAlgorithm { .quickXorHash }

    /// Feeds the next piece of the content; ignored after ``finalize()``.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard finishedHash == nil, !bytes.isEmpty else {
            return
        }
        length &+= UInt64(truncatingIfNeeded: bytes.count)
        let laneCount = Self.widthInBits
        lanes.withUnsafeMutableBytes { lanes in
            var offset = 0
            while offset < bytes.count, nextLane != 0 {
                lanes[nextLane] ^= bytes[offset]
                offset += 1
                nextLane = nextLane == laneCount - 1 ? 0 : nextLane + 1
            }
            while bytes.count - offset >= laneCount {
                for word in stride(from: 0, to: laneCount, by: 8) {
                    let input = bytes.loadUnaligned(fromByteOffset: offset + word, as: UInt64.self)
                    let lane = lanes.loadUnaligned(fromByteOffset: word, as: UInt64.self)
                    lanes.storeBytes(of: lane ^ input, toByteOffset: word, as: UInt64.self)
                }
                offset += laneCount
            }
            while offset < bytes.count {
                lanes[nextLane] ^= bytes[offset]
                offset += 1
                nextLane += 1
            }
        }
    }

    /// Finishes the computation and returns the 20 hash bytes; later calls return the same bytes.
    public func finalize() -> [UInt8] {
        if let finishedHash {
            return finishedHash
        }
        var hash = [UInt8](repeating: 0, count: Self.byteCount)
        for (lane, value) in lanes.enumerated() where value != 0 {
            let bit = (lane * Self.shift) % Self.widthInBits
            let byte = bit / 8
            let bitInByte = bit % 8
            hash[byte] ^= value << bitInByte
            if bitInByte > 0 {
                hash[(byte + 1) % Self.byteCount] ^= value >> (8 - bitInByte)
            }
        }
        withUnsafeBytes(of: length.littleEndian) { lengthBytes in
            for (index, lengthByte) in lengthBytes.enumerated() {
                hash[Self.byteCount - 8 + index] ^= lengthByte
            }
        }
        finishedHash = hash
        return hash
    }

    /// The hash bytes in standard base64 with padding, as Graph's `quickXorHash` field carries
    /// them.
    /// - Parameter hash: The 20 bytes ``finalize()`` returned.
    /// - Returns: The 28-character base64 text.
    public static func base64(_ hash: [UInt8]) -> String {
        Data(hash).base64EncodedString()
    }

    /// Reads a hash as Graph's `quickXorHash` field carries it.
    /// - Parameter text: Standard base64 text.
    /// - Returns: The 20 hash bytes, or `nil` when the text is not base64 of exactly 20 bytes.
    public static func bytes(fromBase64 text: String) -> [UInt8]? {
        guard let data = Data(base64Encoded: text), data.count == byteCount else {
            return nil
        }
        return [UInt8](data)
    }
}
