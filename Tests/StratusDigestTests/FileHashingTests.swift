import Foundation
import Stratus
import StratusDigest
import Testing

@Suite("Hashing files")
struct FileHashingTests {
    @Test("A 9 MiB file hashes like the same bytes in memory")
    func nineMebibyteFile() throws {
        let content = TestInput.nineMebibytes
        let hashes = try TemporaryFile.with(contents: content) { url in
            try Digest.hash(fileAt: url, algorithms: HashAlgorithm.computable)
        }
        #expect(hashes.count == HashAlgorithm.computable.count)
        let vector = PatternVector.all[4]
        #expect(vector.byteCount == content.count)
        for algorithm in HashAlgorithm.computable {
            #expect(hashes[algorithm] == Hex.encode(try Digest.compute(algorithm, over: content)), "\(algorithm)")
            #expect(hashes[algorithm] == vector.expected(algorithm), "\(algorithm)")
        }
    }

    @Test("An empty file, a subset of algorithms and repeats")
    func emptyFileAndRepeats() throws {
        let hashes = try TemporaryFile.with(contents: [UInt8]()) { url in
            try Digest.hash(fileAt: url, algorithms: [.md5, .sha256, .md5])
        }
        #expect(
            hashes == [
                .md5: "d41d8cd98f00b204e9800998ecf8427e",
                .sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            ])
    }

    @Test("No algorithms gives no hashes")
    func noAlgorithms() throws {
        let hashes = try TemporaryFile.with(contents: [UInt8](repeating: 1, count: 10)) { url in
            try Digest.hash(fileAt: url, algorithms: [])
        }
        #expect(hashes.isEmpty)
    }

    @Test("A missing file throws DigestError with the path and ENOENT")
    func missingFile() {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("StratusDigestTests-missing-\(UUID().uuidString)")
        do {
            _ = try Digest.hash(fileAt: url, algorithms: [.sha256])
            Issue.record("expected DigestError")
        } catch {
            #expect(error.path == url.path)
            #expect(error.errorNumber == ENOENT)
            #expect(error.description.contains(url.path))
        }
    }

    @Test("A directory throws DigestError")
    func directory() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("StratusDigestTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: DigestError.self) {
            try Digest.hash(fileAt: directory, algorithms: [.sha256])
        }
    }

    @Test("A URL that is not a file URL throws DigestError")
    func notAFileURL() throws {
        let url = try #require(URL(string: "https://example.invalid/file"))
        #expect(throws: DigestError.self) {
            try Digest.hash(fileAt: url, algorithms: [.sha256])
        }
    }
}
