import Foundation
import Stratus
import Testing

@testable import StratusOneDrive

@Suite("OneDrive path index and delta decoding")
struct PathIndexAndDeltaTests {
    @Test("Forgetting a folder forgets everything below it and names its files")
    func forgetFolder() async throws {
        let index = OneDrivePathIndex()
        let folder = try RemotePath("saves")
        await index.record(folder, id: "F", isFolder: true)
        await index.record(try RemotePath("saves/a.json"), id: "A", isFolder: false)
        await index.record(try RemotePath("saves/deep/b.json"), id: "B", isFolder: false)
        await index.record(try RemotePath("other.json"), id: "O", isFolder: false)
        #expect(await index.forget("F") == [try RemotePath("saves/a.json"), try RemotePath("saves/deep/b.json")])
        #expect(await index.entry(of: "A") == nil)
        #expect(await index.id(of: try RemotePath("other.json")) == "O")
    }

    @Test("A renamed item keeps one path")
    func rename() async throws {
        let index = OneDrivePathIndex()
        await index.record(try RemotePath("a.json"), id: "A", isFolder: false)
        await index.record(try RemotePath("b.json"), id: "A", isFolder: false)
        #expect(await index.id(of: try RemotePath("a.json")) == nil)
        #expect(await index.entry(of: "A")?.path == (try RemotePath("b.json")))
    }

    @Test("A delta page: files with hashes, folders, deleted items, and its links")
    func deltaPage() throws {
        let json = #"""
            {"@odata.context":"x","@odata.nextLink":"https://graph.example/v1.0/me/drive/items/R/delta?token=p2",
             "value":[
              {"id":"R","name":"root","folder":{"childCount":2},"parentReference":{"id":"D"}},
              {"id":"F1","name":"a.json","size":3,"eTag":"aE","cTag":"aC","lastModifiedDateTime":"2026-11-27T05:00:00Z",
               "file":{"mimeType":"application/octet-stream","hashes":{"quickXorHash":"SgAAAAAAAAAAAAAAAQAAAAAAAAA=","sha256Hash":"6E340B9CFFB37A989CA544E6BB780A2C78901D3FB33738768511A30617AFA01D"}},
               "parentReference":{"id":"R","path":"/drive/root:/Apps/Stratus"}},
              {"id":"G1","deleted":{"state":"deleted"},"parentReference":{"id":"R"}}
             ]}
            """#
        let page = try OneDriveJSON.decode(OneDrivePage<OneDriveItem>.self, from: Data(json.utf8), action: "GET delta")
        #expect(page.nextLink?.hasSuffix("token=p2") == true)
        #expect(page.deltaLink == nil)
        #expect(page.value.count == 3)
        #expect(page.value[0].isFolder)
        let file = page.value[1]
        #expect(file.isFile)
        #expect(file.quickXorHash?.value == "4a00000000000000000000000100000000000000")
        #expect(file.sha256Hex == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d")
        #expect(file.modified == Date(timeIntervalSince1970: 1_795_755_600))
        #expect(page.value[2].isDeleted)
    }

    @Test("A hash Graph garbled is no hash, and an unreadable page is invalidResponse")
    func garbled() throws {
        let item = try OneDriveJSON.decode(
            OneDriveItem.self, from: Data(#"{"id":"x","file":{"hashes":{"quickXorHash":"AAAA"}}}"#.utf8),
            action: "GET item")
        #expect(item.quickXorHash == nil)
        let error = #expect(throws: ServiceError.self) {
            try OneDriveJSON.decode(OneDriveItem.self, from: Data("[]".utf8), action: "GET item")
        }
        #expect(error?.code == .invalidResponse)
    }
}
