import StratusDigest
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("Returns the requested number of bytes", arguments: [0, 1, 16, 32, 1000])
    func requestedCount(count: Int) throws {
        #expect(try SecureRandom.bytes(count: count).count == count)
    }

    @Test("Two calls differ")
    func callsDiffer() throws {
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first != second)
    }

    @Test("A negative count throws DigestError")
    func negativeCount() {
        #expect(throws: DigestError.self) {
            try SecureRandom.bytes(count: -1)
        }
    }
}
