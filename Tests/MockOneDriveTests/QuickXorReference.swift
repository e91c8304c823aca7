import Foundation
import StratusDigest
import Testing

/// QuickXorHash worked out bit by bit, independently of the mock's cell arithmetic: byte `i`
/// lands at bit `(11 * i) mod 160` of a 160-bit little-endian number (wrapping round), and the
/// length is XORed into the last 64 bits.
enum QuickXorReference {
    static func hash(_ data: Data) -> String {
        var bits = [UInt8](repeating: 0, count: 20)
        for (index, byte) in data.enumerated() {
            let start = (index * 11) % 160
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let position = (start + bit) % 160
                bits[position / 8] ^= 1 << (position % 8)
            }
        }
        var length = UInt64(data.count)
        for index in 12..<20 {
            bits[index] ^= UInt8(truncatingIfNeeded: length)
            length >>= 8
        }
        return Data(bits).base64EncodedString()
    }
}

@Suite("QuickXorHash")
struct QuickXorHashTests {
    @Test("the empty content's hash is twenty zero bytes")
    func empty() {
        #expect(QuickXorHash.base64(QuickXorHash().finalize()) == "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        #expect(QuickXorReference.hash(Data()) == "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")
    }

    @Test("StratusDigest's QuickXorHash (which the mock uses) agrees with the bit-by-bit reference, whole or in pieces")
    func agreesWithReference() {
        for count in [1, 13, 159, 160, 161, 1000, 4099] {
            let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) })
            let whole = QuickXorHash()
            data.withUnsafeBytes { whole.update($0) }
            let pieces = QuickXorHash()
            var offset = 0
            var step = 1
            while offset < count {
                let end = min(count, offset + step)
                data[offset..<end].withUnsafeBytes { pieces.update($0) }
                offset = end
                step = step * 3 + 1
            }
            let wholeHash = QuickXorHash.base64(whole.finalize())
            #expect(wholeHash == QuickXorReference.hash(data), "\(count) bytes")
            #expect(QuickXorHash.base64(pieces.finalize()) == wholeHash, "\(count) bytes in pieces")
        }
        #expect(QuickXorReference.hash(Data("Hello, World!".utf8)) == "SCgDG9jwBhaA4ApvnQMbyBACAAA=")
    }
}
