import Foundation
import Stratus
import StratusDigest
import Testing

/// A published QuickXorHash vector: the input and the hash, both in base64 as rclone's OneDrive
/// backend publishes them (backend/onedrive/quickxorhash/quickxorhash_test.go). Each was also
/// checked with a bit-by-bit Python version of Microsoft's definition:
///
///     def qxh(d):
///         h = 0
///         for i, b in enumerate(d):
///             v = b << (11 * i % 160)
///             h ^= (v | v >> 160) & (2**160 - 1)
///         o = bytearray(h.to_bytes(20, 'little'))
///         for i, x in enumerate(len(d).to_bytes(8, 'little')):
///             o[12 + i] ^= x
///         return bytes(o)
struct PublishedVector: Sendable, CustomStringConvertible {
    let byteCount: Int
    let input: String
    let hash: String

    var description: String { "\(byteCount) bytes" }

    var bytes: [UInt8] {
        [UInt8](Data(base64Encoded: input) ?? Data())
    }

    static let all: [PublishedVector] = [
        PublishedVector(
            byteCount: 0,
            input: "",
            hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAA="
        ),
        PublishedVector(
            byteCount: 1,
            input: "Sg==",
            hash: "SgAAAAAAAAAAAAAAAQAAAAAAAAA="
        ),
        PublishedVector(
            byteCount: 2,
            input: "tbQ=",
            hash: "taAFAAAAAAAAAAAAAgAAAAAAAAA="
        ),
        PublishedVector(
            byteCount: 3,
            input: "0pZP",
            hash: "0rDEEwAAAAAAAAAAAwAAAAAAAAA="
        ),
        PublishedVector(
            byteCount: 8,
            input: "/aNzzCFPS/A=",
            hash: "/RjFHJgRgicsAR4ACAAAAAAAAAA="
        ),
        PublishedVector(
            byteCount: 13,
            input: "vPgoDjOfO6fm71RxLw==",
            hash: "vMAHChwwg0/s4BTmdQcV4vACAAA="
        ),
        PublishedVector(
            byteCount: 16,
            input: "2fuxhBJXtpWFe8dOfdGeHw==",
            hash: "O9tHLAghgSvYohKFyMMxnNCHaHg="
        ),
        PublishedVector(
            byteCount: 20,
            input: "T6LYJIfDh81JrAK309H2JMJTXis=",
            hash: "zBTHrspn3mEcohlJdIUAbjGNaNg="
        ),
        PublishedVector(
            byteCount: 32,
            input: "NbYXsp5/K6mR+NmHwExjvWeWDJFnXTKWVlzYHoesp2E=",
            hash: "wjuAuWDiq04qDt1R8hHWDDcwVoQ="
        ),
        PublishedVector(
            byteCount: 64,
            input: "Mb7EGva2rEE5fENDL85P+BsapHEEjv2/siVhKjvAQe02feExVOQSkfmuYzU/kTF1MaKjPmKF/w+cbvwfdWL8aQ==",
            hash: "n1anP5NfvD4XDYWIeRPW3ZkPv1Y="
        ),
        PublishedVector(
            byteCount: 111,
            input: "jyibxJSzO6ZiZ0O1qe3tG/bvIAYssvukh9suIT5wEy1JBINVgPiqdsTW0cOpP0aUfP7mgqLfADkzI/m/GgCuVhr8"
                + "oFLrOCoTx1/psBOWwhltCbhUx51Icm9aH8tY4Z3ccU+6BKpYQkLCy0B/A9Zc",
            hash: "hZfLIilSITC6N3e3tQ/iSgEzkto="
        ),
        PublishedVector(
            byteCount: 222,
            input: "PfxMcUd0vIW6VbHG/uj/Y0W6qEoKmyBD0nYebEKazKaKG+UaDqBEcmQjbfQeVnVLuodMoPp7P7TR1htX5n2VnkHh"
                + "22xDyoJ8C/ZQKiSNqQfXvh83judf4RVr9exJCud8Uvgip6aVZTaPrJHVjQhMCp/dEnGvqg0oN5OVkM2qqAXvA0te"
                + "KUDhgNM71sDBVBCGXxNOR2bpbD1iM4dnuT0ey4L+loXEHTL0fqMeUcEi2asgImnlNakwenDzz0x57aBwyq3AspCF"
                + "GB1ncX4yYCr/OaCcS5OKi/00WH+wNQU3",
            hash: "QX/YEpG0gDsmhEpCdWhsxDzsfVE="
        ),
        PublishedVector(
            byteCount: 333,
            input: "w0LGhqU1WXFbdavqDE4kAjEzWLGGzmTNikzqnsiXHx2KRReKVTxkv27u3UcEz9+lbMvYl4xFf2Z4aE1xRBBNd1Ke"
                + "5C0zToSaYw5o4B/7X99nKK2/XaUX1byLow2aju2XJl2OpKpJg+tSJ2fmjIJTkfuYUz574dFX6/VXxSxwGH/xQEAK"
                + "S5TCsBK3CwnuG1p5SAsQq3gGVozDWyjEBcWDMdy8/AIFrj/y03Lfc/RNRCQTAfZbnf2QwV7sluw4fH3XJr07UoD0"
                + "YqN+7XZzidtrwqMY26fpLZnyZjnBEt1FAZWO7RnKG5asg8xRk9YaDdedXdQSJAOy6bWEWlABj+tVAigBxavaluUH"
                + "8LOj+yfCFldJjNLdi90fVHkUD/m4Mr5OtmupNMXPwuG3EQlqWUVpQoYpUYKLsk7a5Mvg6UFkiH596y5IbJEVCI1K" + "b3D1",
            hash: "e3+wo77iKcILiZegnzyUNcjCdoQ="
        ),
    ]
}

@Suite("QuickXorHash")
struct QuickXorHashTests {
    @Test("Published vectors, in one piece", arguments: PublishedVector.all)
    func publishedVectors(vector: PublishedVector) {
        let content = vector.bytes
        #expect(content.count == vector.byteCount)
        let hash = QuickXorHash()
        hash.update(content)
        #expect(QuickXorHash.base64(hash.finalize()) == vector.hash)
    }

    /// Small odd pieces and pieces around the 160-byte period, so piece edges fall on many lanes
    /// and across the period.
    @Test("Published vectors, fed in pieces", arguments: [1, 2, 3, 7, 8, 13, 17, 159, 160, 161])
    func publishedVectorsInPieces(pieceSize: Int) {
        for vector in PublishedVector.all {
            let content = vector.bytes
            let hash = QuickXorHash()
            var offset = 0
            while offset < content.count {
                let end = min(offset + pieceSize, content.count)
                hash.update(content[offset..<end])
                offset = end
            }
            #expect(QuickXorHash.base64(hash.finalize()) == vector.hash, "\(vector)")
        }
    }

    @Test("The algorithm is registered outside the core and computes through Digest")
    func registered() throws {
        #expect(HashAlgorithm.quickXorHash.rawValue == "quickXorHash")
        #expect(HashAlgorithm.quickXorHash.isComputable)
        let digest = try HashAlgorithm.quickXorHash.makeDigest()
        #expect(digest is QuickXorHash)
        #expect(digest.algorithm == .quickXorHash)
        let content = try #require(PublishedVector.all.last).bytes
        let expected = try #require(PublishedVector.all.last).hash
        #expect(QuickXorHash.base64(try Digest.compute(.quickXorHash, over: content)) == expected)
    }

    @Test("A file hashes in one pass beside SHA-256")
    func fileHashing() throws {
        let vector = try #require(PublishedVector.all.last)
        let hashes = try TemporaryFile.with(contents: vector.bytes) { url in
            try Digest.hash(fileAt: url, algorithms: [.sha256, .quickXorHash])
        }
        let expected = try #require(QuickXorHash.bytes(fromBase64: vector.hash))
        #expect(hashes[.quickXorHash] == Hex.encode(expected))
    }

    @Test("Base64 reading takes exactly 20 bytes")
    func base64Reading() {
        #expect(QuickXorHash.bytes(fromBase64: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=") == [UInt8](repeating: 0, count: 20))
        #expect(QuickXorHash.bytes(fromBase64: "AAAA") == nil)
        #expect(QuickXorHash.bytes(fromBase64: "not base64!") == nil)
    }

    @Test("Finalize is idempotent and later updates are ignored")
    func finalizeSpendsTheHash() {
        let hash = QuickXorHash()
        hash.update([UInt8(0x4a)])
        let first = hash.finalize()
        hash.update([UInt8(1), 2, 3])
        #expect(hash.finalize() == first)
        #expect(QuickXorHash.base64(first) == "SgAAAAAAAAAAAAAAAQAAAAAAAAA=")
    }
}
