import Foundation
import MockOneDrive
import MockProviders
import StratusHTTP
import Testing

@Suite("Graph mock: delta and versions")
struct DeltaAndVersionTests {
    /// Follows a delta feed from a URL to its deltaLink: the items seen and the deltaLink.
    static func drain(_ harness: OneDriveHarness, from url: URL) async throws -> ([[String: Any]], URL, Int) {
        var items: [[String: Any]] = []
        var next = url
        var pages = 0
        while true {
            let response = try await harness.send(.get, absolute: next, token: harness.token)
            #expect(response.status == 200, "\(OneDriveHarness.text(response))")
            let page = try OneDriveHarness.object(response)
            items += page["value"] as? [[String: Any]] ?? []
            pages += 1
            if let link = (page["@odata.nextLink"] as? String).flatMap(URL.init(string:)) {
                next = link
            } else {
                return (items, try #require((page["@odata.deltaLink"] as? String).flatMap(URL.init(string:))), pages)
            }
        }
    }

    @Test("the first enumeration pages through nextLink to a deltaLink; later changes and deletions follow")
    func delta() async throws {
        try await OneDriveMockProvider().withSession { harness in
            for index in 0..<5 {
                try await harness.put("/Apps/Stratus/f\(index).txt", Data("\(index)".utf8))
            }
            try await harness.put("/outside.txt", Data("o".utf8))
            let start = try #require(
                URL(string: harness.graphURL.absoluteString + "/v1.0/me/drive/special/approot/delta?$top=2"))
            let (first, deltaLink, pages) = try await Self.drain(harness, from: start)
            let names = first.compactMap { $0["name"] as? String }
            #expect(names == ["Stratus", "f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt"])
            #expect(pages == 3)
            #expect(first.allSatisfy { ($0["parentReference"] as? [String: Any])?["path"] == nil })

            try await harness.put("/Apps/Stratus/f1.txt", Data("changed".utf8))
            try await harness.put("/Apps/Stratus/f1.txt", Data("changed again".utf8))
            #expect(try await harness.send(.delete, "/v1.0/me/drive/root:/Apps/Stratus/f2.txt").status == 204)
            try await harness.put("/outside2.txt", Data("o".utf8))
            let (changes, _, _) = try await Self.drain(harness, from: deltaLink)
            #expect(changes.count == 2)
            #expect(changes.first?["name"] as? String == "f1.txt")
            #expect(changes.first?["size"] as? Int == 13)
            #expect(changes.last?["name"] as? String == "f2.txt")
            #expect(changes.last?["deleted"] != nil)
        }
    }

    @Test("token=latest starts from now; the function form delta(token='...') works too")
    func latest() async throws {
        try await OneDriveMockProvider().withSession { harness in
            try await harness.put("/before.txt", Data("b".utf8))
            let latest = try OneDriveHarness.object(
                try await harness.send(.get, "/v1.0/me/drive/root/delta?token=latest"))
            #expect((latest["value"] as? [Any])?.isEmpty == true)
            let link = try #require(latest["@odata.deltaLink"] as? String)
            let token = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
            try await harness.put("/after.txt", Data("a".utf8))
            let function = try await harness.send(.get, "/v1.0/me/drive/root/delta(token='\(token)')")
            let names = (try OneDriveHarness.object(function)["value"] as? [[String: Any]])?.compactMap {
                $0["name"] as? String
            }
            #expect(names == ["after.txt"])
        }
    }

    @Test("an expired delta token answers 410 resyncRequired with the inner code chain")
    func resync() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let latest = try OneDriveHarness.object(
                try await harness.send(.get, "/v1.0/me/drive/root/delta?token=latest"))
            let link = try #require((latest["@odata.deltaLink"] as? String).flatMap(URL.init(string:)))
            harness.server.expireDeltaTokens()
            let gone = try await harness.send(.get, absolute: link, token: harness.token)
            #expect(gone.status == 410)
            #expect(try OneDriveHarness.errorCodes(gone) == ["resyncRequired", "resyncChangesApplyDifferences"])
            // Also over HTTP, with the control token.
            let control = try #require(
                URL(string: harness.graphURL.absoluteString + "/__stratus/onedrive/expire-delta-tokens"))
            let expired = try await harness.send(.post, absolute: control, token: harness.server.faults.controlToken)
            #expect(expired.status == 204)
        }
    }

    @Test("versions: newest first, content by version, restore adds a version")
    func versions() async throws {
        try await OneDriveMockProvider().withSession { harness in
            for text in ["one", "two", "three"] { try await harness.put("/v.txt", Data(text.utf8)) }
            let path = "/v1.0/me/drive/root:/v.txt:"
            let list = try OneDriveHarness.object(try await harness.send(.get, "\(path)/versions"))
            let ids = (list["value"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == ["3.0", "2.0", "1.0"])
            let old = try await harness.download("\(path)/versions/1.0")
            #expect(old.body == Data("one".utf8))
            let restored = try await harness.send(.post, "\(path)/versions/1.0/restoreVersion")
            #expect(restored.status == 204)
            let after = try OneDriveHarness.object(try await harness.send(.get, "\(path)/versions"))
            #expect((after["value"] as? [Any])?.count == 4)
            #expect(try await harness.download(path).body == Data("one".utf8))
            #expect(try await harness.send(.post, "\(path)/versions/9.0/restoreVersion").status == 404)
        }
    }
}
