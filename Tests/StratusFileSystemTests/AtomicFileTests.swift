import Foundation
import StratusFileSystem
import StratusTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `AtomicFile`: the destination holds the old content or the new, and a failure leaves neither a
/// partial file nor a temporary one.
@Suite struct AtomicFileTests {
    @Test func writesAndReplacesWithTheRequestedMode() async throws {
        try withTemporaryFolder(prefix: "stratus-fs") { url in
            let folder = url.path
            let path = folder + "/token.json"
            try AtomicFile.write(Array("first".utf8), to: path, mode: 0o600, ignoringUmask: true)
            try AtomicFile.write(Data("second".utf8), to: path, mode: 0o600, ignoringUmask: true)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["token.json"])
        }
    }

    @Test func aFailedReplaceLeavesTheOldContentAndNoTemporaryFile() async throws {
        try withTemporaryFolder(prefix: "stratus-fs") { url in
            let folder = url.path
            // A folder at the destination: the new content is written and flushed, then the
            // rename fails, and what was written must not stay behind.
            let path = folder + "/taken"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data("inside".utf8).write(to: URL(filePath: path + "/keep"))
            let error = #expect(throws: FileSystemError.self) {
                try AtomicFile.write(Array(repeating: UInt8(7), count: 100_000), to: path)
            }
            #expect(error?.operation == "rename")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["taken"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["keep"])
        }
    }

    @Test func aFailedCreateLeavesNothing() async throws {
        try withTemporaryFolder(prefix: "stratus-fs") { (url: URL) throws in
            let folder = url.path
            let missing = folder + "/no-such-folder/file"
            let error = #expect(throws: FileSystemError.self) { try AtomicFile.write(Array("x".utf8), to: missing) }
            #expect(error?.operation == "open")
            #expect(error?.errorNumber == ENOENT)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    @Test func aTemporaryFileNeverOverwritesAnExistingOne() async throws {
        try withTemporaryFolder(prefix: "stratus-fs") { url in
            let folder = url.path
            try Data("mine".utf8).write(to: URL(filePath: folder + "/prepared"))
            let error = #expect(throws: FileSystemError.self) {
                try AtomicFile.writeTemporary(Array("other".utf8), in: folder, named: "prepared")
            }
            #expect(error?.errorNumber == EEXIST)
            #expect(try String(contentsOfFile: folder + "/prepared", encoding: .utf8) == "mine")
        }
    }
}
