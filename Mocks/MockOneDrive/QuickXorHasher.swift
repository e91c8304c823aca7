import Foundation

/// OneDrive's QuickXorHash, the mock's own until `StratusDigest` carries one: 160 bits, each
/// byte XORed in 11 bits further along than the one before (wrapping round the 160), the
/// length XORed into the last 64 bits, the 20 bytes given as Base64.
///
/// A value type, so an upload session can keep one between its fragments under its lock.
struct QuickXorHasher: Sendable {
    /// The 160 bits: two 64-bit cells and a 32-bit one (kept in the low half of the third).
    private var cells: [UInt64] = [0, 0, 0]
    /// Where the next byte starts, in bits from the start of the 160.
    private var shiftSoFar = 0
    /// How many bytes were fed.
    private var lengthSoFar: UInt64 = 0

    private static let width = 160
    private static let shift = 11

    /// Feeds the next bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0 else { return }
        var cellIndex = shiftSoFar / 64
        var offset = shiftSoFar % 64
        for start in 0..<min(count, Self.width) {
            let isLastCell = cellIndex == cells.count - 1
            let bitsInCell = isLastCell ? 32 : 64
            // The bytes at start, start + 160, ... all land on the same bits.
            var folded: UInt8 = 0
            var index = start
            while index < count {
                folded ^= bytes[index]
                index += Self.width
            }
            let value = UInt64(folded)
            if offset <= bitsInCell - 8 {
                cells[cellIndex] ^= value << UInt64(offset)
            } else {
                let next = isLastCell ? 0 : cellIndex + 1
                cells[cellIndex] ^= value << UInt64(offset)
                cells[next] ^= value >> UInt64(bitsInCell - offset)
            }
            offset += Self.shift
            while offset >= bitsInCell {
                cellIndex = isLastCell ? 0 : cellIndex + 1
                offset -= bitsInCell
            }
        }
        shiftSoFar = (shiftSoFar + Self.shift * (count % Self.width)) % Self.width
        lengthSoFar &+= UInt64(count)
    }

    /// The 20 bytes of the hash of everything fed.
    func finalize() -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(20)
        for cell in 0..<3 {
            let byteCount = cell == 2 ? 4 : 8
            for byte in 0..<byteCount { result.append(UInt8(truncatingIfNeeded: cells[cell] >> UInt64(8 * byte))) }
        }
        for byte in 0..<8 {
            result[12 + byte] ^= UInt8(truncatingIfNeeded: lengthSoFar >> UInt64(8 * byte))
        }
        return result
    }

    /// The hash as OneDrive writes it in `file.hashes.quickXorHash`: standard Base64.
    func finalizeBase64() -> String {
        Data(finalize()).base64EncodedString()
    }
}
