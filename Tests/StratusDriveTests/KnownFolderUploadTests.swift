import Foundation
import Stratus
import Testing
@testable import StratusDrive

/// New files in a folder this service just created need no name lookup before their create;
/// a second write to a name does look it up, so it updates the file instead of adding one.
@Suite struct KnownFolderUploadTests {
    @Test func newNamesInACreatedFolderSkipTheLookupAndRewritesUpdate() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            for index in 0..<5 {
                _ = try await service.upload(from: .bytes(Data("\(index)".utf8)), to: try RemotePath("fresh/\(index).txt"))
            }
            let log = fixture.server.requestLog
            let nameLookups = log.entries(path: "/drive/v3/files").filter {
                $0.method == "GET" && $0.queryValue("q")?.contains("name = '") == true && $0.queryValue("q")?.contains(".txt'") == true
            }
            #expect(nameLookups.isEmpty)
            #expect(log.entries(path: "/upload/drive/v3/files").count == 5)

            let again = try await service.upload(from: .bytes(Data("again".utf8)), to: try RemotePath("fresh/2.txt"))
            let listing = try await service.list(try RemotePath("fresh"))
            #expect(listing.count == 5)
            #expect(try await service.metadata(of: try RemotePath("fresh/2.txt")).id == again.id)
        }
    }

    @Test func theIndexClaimsEachNameOnceAndForgetsWithTheFolder() async throws {
        let index = DrivePathIndex()
        let folder = try RemotePath("f")
        #expect(await index.claimUnusedName(try RemotePath("f/a")) == false)
        await index.recordCreatedFolder(folder)
        #expect(await index.claimUnusedName(try RemotePath("f/a")) == true)
        #expect(await index.claimUnusedName(try RemotePath("f/a")) == false)
        await index.record(try RemotePath("f/b"), id: "B", isFolder: false)
        #expect(await index.claimUnusedName(try RemotePath("f/b")) == false)
        await index.forgetFolders(along: folder)
        #expect(await index.claimUnusedName(try RemotePath("f/c")) == false)
    }
}
