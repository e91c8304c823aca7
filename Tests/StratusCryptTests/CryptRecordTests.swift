import Foundation
import Stratus
import StratusDigest
import Testing

@testable import StratusCrypt

/// The sealed record: compact enough for Drive's appProperties, bound to one stored content.
@Suite struct CryptRecordTests {
    static let key = [UInt8](repeating: 3, count: 64)

    static func stored(size: Int64, hash: String?) -> RemoteFile {
        RemoteFile(
            path: .root, id: "1", size: size, modified: Date(),
            contentHash: hash.map { ContentHash(algorithm: .md5, value: $0) },
            version: VersionID("1"))
    }

    @Test func aRecordRoundTripsAndFitsDrive() throws {
        let hash = Hex.encode(Digest.sha256(Array("plain".utf8)))
        let record = CryptRecord(sha256: hash, size: 5, metadata: [:], sealedSize: 205, sealedHash: "abc")
        let sealed = try record.sealed(with: Self.key)
        #expect(sealed.count == 99)
        #expect(CryptRecord.metadataKey.utf8.count + sealed.utf8.count <= 124)
        let opened = try #require(CryptRecord.open([CryptRecord.metadataKey: sealed], key: Self.key))
        #expect(opened == record)
        #expect(opened.describes(Self.stored(size: 205, hash: "abc")))
        #expect(!opened.describes(Self.stored(size: 205, hash: "abd")))
        #expect(!opened.describes(Self.stored(size: 206, hash: "abc")))

        let withMetadata = CryptRecord(sha256: hash, size: 5, metadata: ["slot": "1"], sealedSize: 205, sealedHash: nil)
        let reopened = CryptRecord.open(
            [CryptRecord.metadataKey: try withMetadata.sealed(with: Self.key)], key: Self.key)
        #expect(reopened == withMetadata)
        #expect(CryptRecord.open([CryptRecord.metadataKey: sealed], key: [UInt8](repeating: 4, count: 64)) == nil)
        #expect(CryptRecord.open([CryptRecord.metadataKey: String(sealed.dropLast())], key: Self.key) == nil)
    }
}
