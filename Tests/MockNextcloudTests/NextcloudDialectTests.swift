import Foundation
import StratusAdapterKit
import StratusDigest
import Testing

/// The Nextcloud dialect the mock speaks, spoken to in raw WebDAV: authentication, PROPFIND
/// depths, ETags that move up the tree, checksums, dead properties (all or nothing) and the
/// versions collection.
@Suite struct NextcloudDialectTests {
    private static let ownCloud = "http://owncloud.org/ns"

    @Test func requestsWithoutTheRightPasswordAreRefusedTheSabreWay() async throws {
        try await NextcloudHarness.with { nextcloud in
            let response = try await nextcloud.send(
                "PROPFIND", nextcloud.fileURL(""), headers: [("Depth", "0")], credentials: "alice:wrong")
            #expect(response.status == 401)
            #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
            let error = try XMLTree.parse(response.body)
            #expect(error.name == "error")
            #expect(error.namespace == "DAV:")
            #expect(error.value("exception")?.contains("NotAuthenticated") == true)
        }
    }

    @Test func depthInfinityIsRefusedAndDepthOneListsChildren() async throws {
        try await NextcloudHarness.with { nextcloud in
            let infinity = try await nextcloud.send(
                "PROPFIND", nextcloud.fileURL(""), headers: [("Depth", "infinity")])
            #expect(infinity.status == 403)
            #expect(try await nextcloud.send("MKCOL", nextcloud.fileURL("docs")).status == 201)
            #expect(
                try await nextcloud.send("PUT", nextcloud.fileURL("docs/a.txt"), body: Data("a".utf8)).status == 201)
            #expect(try await nextcloud.send("PUT", nextcloud.fileURL("b.txt"), body: Data("bb".utf8)).status == 201)
            let listing = try await nextcloud.propfind(
                nextcloud.fileURL(""), depth: "1", properties: [("DAV:", "getcontentlength")])
            let hrefs = listing.children("response", namespace: "DAV:").compactMap { $0.value("href") }
            #expect(hrefs.count == 3)
            #expect(hrefs.contains { $0.hasSuffix("/files/alice/docs/") })
            #expect(hrefs.contains { $0.hasSuffix("/files/alice/b.txt") })
            #expect(!hrefs.contains { $0.hasSuffix("a.txt") })
        }
    }

    @Test func aWriteChangesTheETagOfEveryFolderAboveItAndNoOther() async throws {
        try await NextcloudHarness.with { nextcloud in
            for folder in ["a", "a/b", "other"] {
                #expect(try await nextcloud.send("MKCOL", nextcloud.fileURL(folder)).status == 201)
            }
            func etag(_ path: String) async throws -> String? {
                NextcloudHarness.found(
                    try await nextcloud.propfind(nextcloud.fileURL(path), properties: [("DAV:", "getetag")]), "DAV:",
                    "getetag")
            }
            let before = try await [etag(""), etag("a"), etag("a/b"), etag("other")]
            #expect(before.allSatisfy { $0 != nil })
            #expect(try await nextcloud.send("PUT", nextcloud.fileURL("a/b/c.txt"), body: Data("c".utf8)).status == 201)
            let after = try await [etag(""), etag("a"), etag("a/b"), etag("other")]
            #expect(after[0] != before[0])
            #expect(after[1] != before[1])
            #expect(after[2] != before[2])
            #expect(after[3] == before[3])
        }
    }

    @Test func theChecksumAClientSendsIsListedWithTheFileID() async throws {
        try await NextcloudHarness.with { nextcloud in
            let content = Data("checked content".utf8)
            let sha1 = Hex.encode(Digest.sha1(content))
            let put = try await nextcloud.send(
                "PUT", nextcloud.fileURL("f.bin"), body: content, headers: [("OC-Checksum", "SHA1:\(sha1)")])
            #expect(put.status == 201)
            let fileID = try #require(put.headers["OC-FileId"])
            let properties = try await nextcloud.propfind(
                nextcloud.fileURL("f.bin"),
                properties: [(Self.ownCloud, "checksums"), (Self.ownCloud, "fileid"), ("DAV:", "getcontentlength")])
            let response = try #require(properties.child("response", namespace: "DAV:"))
            let checksums = response.children("propstat", namespace: "DAV:")
                .compactMap { $0.child("prop", namespace: "DAV:")?.child("checksums", namespace: Self.ownCloud) }
            #expect(checksums.first?.child("checksum", namespace: Self.ownCloud)?.text == "SHA1:\(sha1)")
            let listedID = try #require(NextcloudHarness.found(properties, Self.ownCloud, "fileid"))
            // oc:fileid is the number; OC-FileId is oc:id, the number padded to 8 digits and the instance id.
            #expect(Int(fileID.prefix(8)) == Int(listedID))
            #expect(NextcloudHarness.found(properties, "DAV:", "getcontentlength") == String(content.count))
        }
    }

    @Test func aPropertyUpdateIsAllOrNothingAndEachInnerStatusIsReported() async throws {
        try await NextcloudHarness.with { nextcloud in
            #expect(try await nextcloud.send("PUT", nextcloud.fileURL("p.txt"), body: Data("p".utf8)).status == 201)
            let namespace = "urn:stratus:test"
            func update(_ props: String) async throws -> XMLTree {
                let body = """
                    <?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:s="\(namespace)">\
                    <d:set><d:prop>\(props)</d:prop></d:set></d:propertyupdate>
                    """
                let response = try await nextcloud.send("PROPPATCH", nextcloud.fileURL("p.txt"), body: Data(body.utf8))
                #expect(response.status == 207)
                return try XMLTree.parse(response.body)
            }
            let mixed = try await update("<s:colour>red &amp; blue</s:colour><d:getetag>forged</d:getetag>")
            let statuses =
                mixed.child("response", namespace: "DAV:")?.children("propstat", namespace: "DAV:")
                .compactMap { $0.value("status") } ?? []
            #expect(statuses.contains { $0.contains(" 403 ") })
            #expect(statuses.contains { $0.contains(" 424 ") })
            let untouched = try await nextcloud.propfind(
                nextcloud.fileURL("p.txt"), properties: [(namespace, "colour")])
            #expect(NextcloudHarness.found(untouched, namespace, "colour") == nil)

            let clean = try await update("<s:colour>red &amp; blue</s:colour>")
            let cleanStatuses =
                clean.child("response", namespace: "DAV:")?.children("propstat", namespace: "DAV:")
                .compactMap { $0.value("status") } ?? []
            #expect(cleanStatuses.count == 1 && cleanStatuses.allSatisfy { $0.contains(" 200 ") })
            let kept = try await nextcloud.propfind(nextcloud.fileURL("p.txt"), properties: [(namespace, "colour")])
            #expect(NextcloudHarness.found(kept, namespace, "colour") == "red & blue")
            // The same local name in another namespace is another property.
            let other = try await nextcloud.propfind(nextcloud.fileURL("p.txt"), properties: [("urn:other", "colour")])
            #expect(NextcloudHarness.found(other, "urn:other", "colour") == nil)
        }
    }

    @Test func aPropfindBodyThatIsNotXMLIsABadRequest() async throws {
        try await NextcloudHarness.with { nextcloud in
            let response = try await nextcloud.send(
                "PROPFIND", nextcloud.fileURL(""), body: Data("<d:propfind".utf8), headers: [("Depth", "0")])
            #expect(response.status == 400)
        }
    }

    @Test func overwritesBecomeVersionsThatCanBeReadAndRestored() async throws {
        try await NextcloudHarness.with { nextcloud in
            let first = try await nextcloud.send(
                "PUT", nextcloud.fileURL("v.txt"), body: Data("first".utf8), headers: [("X-OC-Mtime", "1000")])
            #expect(first.status == 201)
            let second = try await nextcloud.send(
                "PUT", nextcloud.fileURL("v.txt"), body: Data("second".utf8), headers: [("X-OC-Mtime", "2000")])
            #expect(second.status == 204)
            let idText = try #require(first.headers["OC-FileId"]?.prefix(8))
            let fileID = String(try #require(Int(idText)))

            let listing = try await nextcloud.propfind(
                nextcloud.versionURL(fileID), depth: "1", properties: [("DAV:", "getcontentlength")])
            let hrefs = listing.children("response", namespace: "DAV:").compactMap { $0.value("href") }
            #expect(hrefs.count == 2)
            #expect(hrefs.contains { $0.hasSuffix("/versions/\(fileID)/1000") })

            let old = try await nextcloud.send("GET", nextcloud.versionURL("\(fileID)/1000"))
            #expect(old.status == 200)
            #expect(old.body == Data("first".utf8))

            let refused = try await nextcloud.send(
                "MOVE", nextcloud.versionURL("\(fileID)/1000"),
                headers: [("Destination", nextcloud.fileURL("elsewhere.txt").absoluteString)])
            #expect(refused.status == 403)

            let restore = nextcloud.baseURL.appending(path: "remote.php/dav/versions/alice/restore/target")
            let restored = try await nextcloud.send(
                "MOVE", nextcloud.versionURL("\(fileID)/1000"), headers: [("Destination", restore.absoluteString)])
            #expect(restored.status == 204)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("v.txt")).body == Data("first".utf8))
            let afterRestore = try await nextcloud.propfind(
                nextcloud.versionURL(fileID), depth: "1", properties: [("DAV:", "getcontentlength")])
            let restoredHrefs = afterRestore.children("response", namespace: "DAV:").compactMap { $0.value("href") }
            #expect(restoredHrefs.contains { $0.hasSuffix("/\(fileID)/2000") })
        }
    }

    /// RFC 4918 9.10.2: a LOCK with an If header refreshes the lock it names; once that lock is
    /// gone (a refresh that reached the server after the UNLOCK), it is 412 and grants nothing,
    /// so it cannot leave a lock no writer knows about.
    @Test func aLockRefreshExtendsItsLockAndAStaleOneGrantsNothing() async throws {
        try await NextcloudHarness.with { nextcloud in
            let url = nextcloud.fileURL("locked.txt")
            let lock = try await nextcloud.send("LOCK", url, headers: [("Timeout", "Second-60")])
            let token = try #require(lock.headers["Lock-Token"])
            let refresh = [("If", "(\(token))"), ("Timeout", "Second-60")]
            let refreshed = try await nextcloud.send("LOCK", url, headers: refresh)
            #expect(refreshed.status == 200)
            #expect(refreshed.headers["Lock-Token"] == token)
            #expect(try await nextcloud.send("UNLOCK", url, headers: [("Lock-Token", token)]).status == 204)

            let stale = try await nextcloud.send("LOCK", url, headers: refresh)
            #expect(stale.status == 412)
            let next = try await nextcloud.send("LOCK", url, headers: [("Timeout", "Second-60")])
            #expect(next.status == 200, "the stale refresh left no lock behind")
        }
    }
}
