import Stratus
import StratusDigest
import Testing

/// Expected digests of the deterministic pattern (byte i = i % 251), computed independently with
/// Python's hashlib:
///
///     python3 -c "import hashlib; d=bytes(i % 251 for i in range(N)); print(hashlib.sha256(d).hexdigest(), hashlib.sha1(d).hexdigest(), hashlib.md5(d).hexdigest())"
///
/// and for the Dropbox content hash (SHA-256 over the SHA-256 of each 4 MiB block):
///
///     python3 -c "import hashlib; d=bytes(i % 251 for i in range(N)); B=4194304; print(hashlib.sha256(b''.join(hashlib.sha256(d[i:i+B]).digest() for i in range(0, len(d), B))).hexdigest())"
///
/// and for QuickXorHash with a bit-by-bit Python version of Microsoft's definition, checked first
/// against rclone's published vectors (the script is in QuickXorHashTests.swift),
///
/// with N = 0, 1, 4194304, 4194305 and 9437184.
struct PatternVector: Sendable, CustomStringConvertible {
    let byteCount: Int
    let sha256: String
    let sha1: String
    let md5: String
    let dropboxContentHash: String
    let quickXorHash: String

    func expected(_ algorithm: HashAlgorithm) -> String {
        switch algorithm {
        case .sha256: sha256
        case .sha1: sha1
        case .md5: md5
        case .dropboxContentHash: dropboxContentHash
        case .quickXorHash: quickXorHash
        default: "no vector for \(algorithm)"
        }
    }

    var description: String { "\(byteCount) bytes" }

    static let all: [PatternVector] = [
        PatternVector(
            byteCount: 0,
            sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            sha1: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            md5: "d41d8cd98f00b204e9800998ecf8427e",
            dropboxContentHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            quickXorHash: "0000000000000000000000000000000000000000"
        ),
        PatternVector(
            byteCount: 1,
            sha256: "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            sha1: "5ba93c9db0cff93f52b521d7420e43f6eda2784f",
            md5: "93b885adfe0da089cdf634904fd59f71",
            dropboxContentHash: "1406e05881e299367766d313e26c05564ec91bf721d31726bd6e46e60689539a",
            quickXorHash: "0000000000000000000000000100000000000000"
        ),
        PatternVector(
            byteCount: 4_194_304,
            sha256: "a117210941a0b00dcb2d8577e680d84b6fa0eaf760d2afc654c953b9859d54fa",
            sha1: "077c791119e055e7a0ae5e507089a3f9114836f5",
            md5: "aad8b8e4d120d0df7a7fda991d5dab03",
            dropboxContentHash: "b9654428408015906b44a00935b70af33830aa344b780b0eabd535a133150d04",
            quickXorHash: "8a849de63a8c9e037c048d688a40ede2ec82c86a"
        ),
        PatternVector(
            byteCount: 4_194_305,
            sha256: "f4711f6bc42a8dc6520e30e306743855a82c7bdecd6e7d3edfb04b6f4524f7bd",
            sha1: "b4af8f5269b5a9aede8417cf4f698f4d9c65b23a",
            md5: "31244b258b16e75cdf5fd63f0c98f8c6",
            dropboxContentHash: "4a6cc0a344febaa07772e7c974834b2fb1d24594d4ba15f27c97a54699709f44",
            quickXorHash: "8a849de63a8c9e0322048d688b40ede2ec82c86a"
        ),
        PatternVector(
            byteCount: 9_437_184,
            sha256: "5a9ed69fb98cb8ce976ff50dd58c64f3ad76ea56e5591551ad232a0c499d937d",
            sha1: "017e65c13d1dcebcab92f45f613069214c73f17b",
            md5: "0aa0ffd067f85965934ed63cc8660850",
            dropboxContentHash: "a9aa14f788a027eba2f37a2a5344ce86e1371071f6959953374165125d07b19a",
            quickXorHash: "09b2ecbf9d87e17d38ca1985d2dc90054291efd8"
        ),
    ]
}

@Suite("Digest vectors")
struct DigestVectorTests {
    @Test(
        "Incremental digests match hashlib for every piece pattern", arguments: PatternVector.all, PiecePattern.allCases
    )
    func incrementalDigestsMatchVectors(vector: PatternVector, pieces: PiecePattern) throws {
        let content = TestInput.pattern(count: vector.byteCount)
        for algorithm in HashAlgorithm.computable {
            let digest = try algorithm.makeDigest()
            pieces.feed(content, to: digest)
            #expect(digest.finalizeHex() == vector.expected(algorithm), "\(algorithm)")
        }
    }

    @Test("One-shot conveniences match hashlib", arguments: PatternVector.all)
    func oneShotDigestsMatchVectors(vector: PatternVector) throws {
        let content = TestInput.pattern(count: vector.byteCount)
        #expect(Hex.encode(Digest.sha256(content)) == vector.sha256)
        #expect(Hex.encode(Digest.sha1(content)) == vector.sha1)
        #expect(Hex.encode(Digest.md5(content)) == vector.md5)
        for algorithm in HashAlgorithm.computable {
            #expect(
                Hex.encode(try Digest.compute(algorithm, over: content)) == vector.expected(algorithm), "\(algorithm)")
        }
    }

    @Test("Each algorithm makes the matching digest class with the documented length")
    func algorithmsMakeTheirDigests() throws {
        #expect(try HashAlgorithm.sha256.makeDigest() is SHA256Digest)
        #expect(try HashAlgorithm.sha1.makeDigest() is SHA1Digest)
        #expect(try HashAlgorithm.md5.makeDigest() is MD5Digest)
        #expect(try HashAlgorithm.dropboxContentHash.makeDigest() is DropboxContentHash)
        #expect(try HashAlgorithm.quickXorHash.makeDigest() is QuickXorHash)
        var lengths: [Int] = []
        for algorithm in HashAlgorithm.computable {
            let digest = try algorithm.makeDigest()
            #expect(digest.algorithm == algorithm)
            #expect(algorithm.isComputable)
            lengths.append(digest.finalize().count)
        }
        #expect(lengths == [32, 20, 16, 32, 20])
    }

    @Test("An algorithm an adapter named itself is a typed error, not a crash")
    func unknownAlgorithmIsATypedError() throws {
        let unknown = HashAlgorithm(rawValue: "whirlpool")
        #expect(!unknown.isComputable)
        let error = #expect(throws: DigestError.self) { try unknown.makeDigest() }
        #expect(error?.unsupportedAlgorithm == unknown)
        #expect(error?.message.contains("whirlpool") == true)
        let viaCompute = #expect(throws: DigestError.self) { try Digest.compute(unknown, over: [UInt8]()) }
        #expect(viaCompute?.unsupportedAlgorithm == unknown)
        let viaFile = #expect(throws: DigestError.self) {
            try TemporaryFile.with(contents: [UInt8(1)]) { url in
                try Digest.hash(fileAt: url, algorithms: [.sha256, unknown])
            }
        }
        #expect(viaFile?.unsupportedAlgorithm == unknown)
    }

    @Test("Finalize is idempotent and later updates are ignored")
    func finalizeSpendsTheDigest() throws {
        for algorithm in HashAlgorithm.computable {
            let digest = try algorithm.makeDigest()
            digest.update(TestInput.pattern(count: 1))
            let first = digest.finalize()
            digest.update(TestInput.pattern(count: 1000))
            #expect(digest.finalize() == first, "\(algorithm)")
            #expect(digest.finalizeHex() == PatternVector.all[1].expected(algorithm), "\(algorithm)")
        }
    }

    @Test("Single-byte pieces give the same digest as one piece")
    func singleBytePieces() throws {
        let content = TestInput.pattern(count: 3000)
        for algorithm in HashAlgorithm.computable {
            let digest = try algorithm.makeDigest()
            for byte in content {
                digest.update([byte])
            }
            #expect(try digest.finalize() == Digest.compute(algorithm, over: content), "\(algorithm)")
        }
    }

    @Test("Algorithms keep the raw names the closed enum had")
    func algorithmRawValues() {
        #expect(
            HashAlgorithm.computable.map(\.rawValue) == ["sha256", "sha1", "md5", "dropboxContentHash", "quickXorHash"])
        #expect(HashAlgorithm(rawValue: "dropboxContentHash") == .dropboxContentHash)
    }
}
