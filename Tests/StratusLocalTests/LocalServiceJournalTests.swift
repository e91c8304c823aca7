import Foundation
import Stratus
import StratusLocal
import StratusTestSupport
import Testing

@Suite struct LocalServiceJournalTests {
    @Test func aTokenFromAnotherRootIsRefused() async throws {
        let one = try TemporaryFolder(prefix: "stratus-local-tests")
        let other = try TemporaryFolder(prefix: "stratus-local-tests")
        defer {
            one.remove()
            other.remove()
        }
        let token = try await one.service().latestChangeToken()
        let error = await expectServiceError(.invalidChangeToken) { try await other.service().changes(since: token) }
        #expect(error?.message.contains("different local store") == true)
    }

    @Test func aTokenPointingIntoTheMiddleOfAChangeIsRefused() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        _ = try await service.upload(from: .bytes(Data("a".utf8)), to: try RemotePath("a.txt"))
        let end = try await service.latestChangeToken().rawValue
        let parts = end.split(separator: ".")
        let offset = try #require(Int(parts[2]))
        for bad in [offset - 3, offset + 1, 0] {
            let tampered = ChangeToken(rawValue: "\(parts[0]).\(parts[1]).\(bad)")
            await expectServiceError(.invalidChangeToken) { try await service.changes(since: tampered) }
        }
    }

    @Test func pagesFollowThePageSizeAndEndWithoutMore() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service(changePageSize: 2)
        let start = try await service.latestChangeToken()
        for index in 0..<5 {
            _ = try await service.upload(from: .bytes(Data("\(index)".utf8)), to: try RemotePath("f\(index).txt"))
        }
        var token = start
        var sizes: [Int] = []
        var names: [String] = []
        while true {
            let page = try await service.changes(since: token)
            sizes.append(page.changes.count)
            names += page.changes.map(\.path.string)
            token = page.nextToken
            if !page.hasMore { break }
        }
        #expect(sizes == [2, 2, 1])
        #expect(names == ["f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt"])
        #expect(try await service.changes(since: token).changes.isEmpty)
    }

    @Test func aTornLastLineIsCutOffAndTheJournalGoesOn() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let start = try await service.latestChangeToken()
        _ = try await service.upload(from: .bytes(Data("a".utf8)), to: try RemotePath("a.txt"))

        // A crash in the middle of an append leaves a line without its newline.
        let journal = folder.root.appending(path: ".stratus/changes.jsonl")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"change\":\"upse".utf8))
        try handle.close()

        _ = try await service.upload(from: .bytes(Data("b".utf8)), to: try RemotePath("b.txt"))
        let page = try await service.changes(since: start)
        #expect(page.changes.map(\.path.string) == ["a.txt", "b.txt"])
        #expect(!page.hasMore)
    }

    @Test func deletesAndRestoresAreReported() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-local-tests")
        defer { folder.remove() }
        let service = try folder.service()
        let path = try RemotePath("a.txt")
        let start = try await service.latestChangeToken()
        let first = try await service.upload(from: .bytes(Data("a".utf8)), to: path)
        try await service.delete(path)
        let restored = try await service.restore(path, to: first.version)
        let page = try await service.changes(since: start)
        #expect(page.changes == [.upserted(first), .deleted(path), .upserted(restored)])
    }
}
