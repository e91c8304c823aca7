import Foundation
import Stratus
import StratusTestSupport
import Testing

@testable import StratusCrypt

/// age v1 files: round trips at the chunk boundaries, hostile payloads, and the `age` tool.
@Suite struct AgeStreamTests {
    static let sizes = [0, 1, 65535, 65536, 65537, 2 * 65536, 3 * 1_048_576 + 7]

    static func content(_ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
    }

    static func seal(_ plain: [UInt8], to identity: AgeIdentity) throws -> [UInt8] {
        var out: [UInt8] = []
        try AgeStream.encrypt(read: AgeStream.reader(plain), write: { out += $0 }) { fileKey in
            [try AgeRecipients.x25519Stanza(fileKey: fileKey, to: identity.publicKey)]
        }
        return out
    }

    static func open(_ sealed: [UInt8], with identity: AgeIdentity) throws -> [UInt8] {
        var out: [UInt8] = []
        try AgeStream.decrypt(read: AgeStream.reader(sealed), write: { out += $0 }) { header in
            guard let key = try AgeRecipients.fileKey(from: header.stanzas, identity: identity) else {
                throw AgeFailure.corrupt("no stanza is for this identity")
            }
            return key
        }
        return out
    }

    @Test(arguments: sizes)
    func roundTrip(size: Int) throws {
        let identity = try AgeIdentity.generate()
        let plain = Self.content(size)
        let sealed = try Self.seal(plain, to: identity)
        #expect(AgeStream.plaintextSize(ofSealed: Int64(sealed.count)) == Int64(size))
        #expect(try Self.open(sealed, with: identity) == plain)
    }

    @Test func identityTextRoundTrips() throws {
        let identity = try AgeIdentity.generate()
        #expect(identity.secretKeyText.hasPrefix("AGE-SECRET-KEY-1"))
        #expect(identity.recipient.hasPrefix("age1"))
        #expect(try AgeIdentity(secretKeyText: identity.secretKeyText) == identity)
        #expect(!"\(identity)".contains(identity.secretKeyText))
        var altered = Array(identity.secretKeyText)
        altered[20] = altered[20] == "Q" ? "P" : "Q"
        #expect(throws: ServiceError.self) { try AgeIdentity(secretKeyText: String(altered)) }
    }

    /// Chunk boundaries in a sealed file of three chunks (two full, one short).
    static func chunks(_ sealed: [UInt8]) -> (head: [UInt8], chunks: [[UInt8]]) {
        let start = Int(AgeStream.x25519Overhead)
        var chunks: [[UInt8]] = []
        var offset = start
        while offset < sealed.count {
            let end = min(sealed.count, offset + AgeStream.sealedChunkSize)
            chunks.append(Array(sealed[offset..<end]))
            offset = end
        }
        return (Array(sealed[..<start]), chunks)
    }

    static func expectCorrupt(_ sealed: [UInt8], _ identity: AgeIdentity, _ comment: Comment) {
        #expect(comment) {
            _ = try open(sealed, with: identity)
        } throws: { error in
            guard case .corrupt = error as? AgeFailure else { return false }
            return true
        }
    }

    @Test func hostilePayloadsAreRefused() throws {
        let identity = try AgeIdentity.generate()
        let sealed = try Self.seal(Self.content(2 * 65536 + 100), to: identity)
        let (head, chunks) = Self.chunks(sealed)
        #expect(chunks.count == 3)
        Self.expectCorrupt(head + [chunks[1], chunks[0], chunks[2]].flatMap { $0 }, identity, "reordered")
        Self.expectCorrupt(head + [chunks[0], chunks[0], chunks[1], chunks[2]].flatMap { $0 }, identity, "duplicated")
        Self.expectCorrupt(head + [chunks[0], chunks[2]].flatMap { $0 }, identity, "middle dropped")
        Self.expectCorrupt(head + [chunks[0], chunks[1]].flatMap { $0 }, identity, "last dropped: not marked last")
        Self.expectCorrupt(Array(sealed.dropLast(1)), identity, "truncated by a byte")
        Self.expectCorrupt(Array(sealed.prefix(100)), identity, "truncated in the header")
        var flipped = sealed
        flipped[sealed.count / 2] ^= 0x40
        Self.expectCorrupt(flipped, identity, "a flipped payload bit")
        var header = sealed
        header[30] = header[30] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        Self.expectCorrupt(header, identity, "an altered header")
        let foreign = try AgeIdentity.generate()
        Self.expectCorrupt(try Self.seal([1, 2, 3], to: foreign), identity, "to another identity")
        Self.expectCorrupt(Array("hello, not age\n".utf8), identity, "not age")
        #expect(throws: AgeFailure.newerFormat("it is written in \"age-encryption.org/v2\", not age v1")) {
            _ = try Self.open(Array("age-encryption.org/v2\n".utf8) + [UInt8](repeating: 0, count: 100), with: identity)
        }
    }

    /// Every full chunk not marked last, and the file ending after one: a "last chunk not marked
    /// last" built by sealing two chunks and keeping the first.
    @Test func aFileCutAtAChunkBoundaryIsRefused() throws {
        let identity = try AgeIdentity.generate()
        let sealed = try Self.seal(Self.content(65536 + 1), to: identity)
        Self.expectCorrupt(
            Array(sealed.prefix(Int(AgeStream.x25519Overhead) + AgeStream.sealedChunkSize)), identity, "cut")
    }
}

/// The `age` tool reads what Stratus writes, and Stratus reads what `age` writes.
@Suite(.enabled(if: AgeTool.isRequired, "the age tool is not installed"))
struct AgeInteropTests {
    @Test(arguments: [0, 1, 65536, 65537, 3 * 1_048_576 + 5])
    func ageDecryptsStratusFiles(size: Int) async throws {
        try await withTemporaryFolder { folder in
            let identity = try AgeIdentity.generate()
            let identityFile = folder.appending(path: "identity.txt")
            try Data((identity.secretKeyText + "\n").utf8).write(to: identityFile)
            let plain = AgeStreamTests.content(size)
            let sealedFile = folder.appending(path: "file.age")
            try Data(try AgeStreamTests.seal(plain, to: identity)).write(to: sealedFile)
            let output = folder.appending(path: "plain")
            let result = try await AgeTool.run(["-d", "-i", identityFile.path, sealedFile.path], output: output)
            #expect(result.status == 0, "age -d: \(result.error)")
            #expect(try [UInt8](Data(contentsOf: output)) == plain)
        }
    }

    @Test func stratusReadsWhatAgeEncryptsToItsIdentity() async throws {
        try await withTemporaryFolder { folder in
            let identity = try AgeIdentity.generate()
            let plain = AgeStreamTests.content(200_000)
            let input = folder.appending(path: "plain")
            try Data(plain).write(to: input)
            let sealedFile = folder.appending(path: "file.age")
            let result = try await AgeTool.run(["-r", identity.recipient, "-o", sealedFile.path, input.path])
            #expect(result.status == 0, "age -r: \(result.error)")
            let sealed = try [UInt8](Data(contentsOf: sealedFile))
            #expect(try AgeStreamTests.open(sealed, with: identity) == plain)
        }
    }

    @Test func identitiesMatchAgeKeygen() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appending(path: "key.txt")
            let recipient = try await AgeTool.keygen(to: file)
            let text = try String(contentsOf: file, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("AGE-SECRET-KEY-1") })
            let identity = try AgeIdentity(secretKeyText: String(line))
            #expect(identity.recipient == recipient)
            #expect(identity.secretKeyText == line)
        }
    }
}
