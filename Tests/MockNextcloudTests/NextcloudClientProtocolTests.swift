import Foundation
import StratusAdapterKit
import Testing

/// What the desktop client asks before and while it syncs: `status.php`, the OCS capabilities
/// and user, and the PROPFIND properties, content type and headers it requires.
@Suite struct NextcloudClientProtocolTests {
    private static let ownCloud = "http://owncloud.org/ns"
    private static let nextcloud = "http://nextcloud.org/ns"

    private static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func statusIsAnsweredWithoutALogin() async throws {
        try await NextcloudHarness.with { nextcloud in
            let response = try await nextcloud.send(
                "GET", nextcloud.baseURL.appending(path: "status.php"), credentials: "nobody:nothing")
            #expect(response.status == 200)
            let status = try Self.json(response.body)
            #expect(status["installed"] as? Bool == true)
            #expect(status["maintenance"] as? Bool == false)
            #expect(status["needsDbUpgrade"] as? Bool == false)
            #expect(status["productname"] as? String == "Nextcloud")
            #expect((status["version"] as? String)?.hasPrefix("28.0.") == true)
            #expect(status["versionstring"] as? String == "28.0.4")
        }
    }

    @Test func theCapabilitiesAdvertiseChunkingVersionsAndChecksumsInBothOCSVersions() async throws {
        try await NextcloudHarness.with { nextcloud in
            for (path, code) in [("ocs/v1.php/cloud/capabilities", 100), ("ocs/v2.php/cloud/capabilities", 200)] {
                var components = try #require(
                    URLComponents(url: nextcloud.baseURL.appending(path: path), resolvingAgainstBaseURL: false))
                components.queryItems = [URLQueryItem(name: "format", value: "json")]
                let response = try await nextcloud.send(
                    "GET", try #require(components.url), headers: [("OCS-APIRequest", "true")])
                #expect(response.status == 200)
                let ocs = try #require(try Self.json(response.body)["ocs"] as? [String: Any])
                let meta = try #require(ocs["meta"] as? [String: Any])
                #expect(meta["statuscode"] as? Int == code)
                let data = try #require(ocs["data"] as? [String: Any])
                let capabilities = try #require(data["capabilities"] as? [String: Any])
                #expect((capabilities["dav"] as? [String: Any])?["chunking"] as? String == "1.0")
                #expect((capabilities["core"] as? [String: Any])?["webdav-root"] as? String == "remote.php/webdav")
                let files = try #require(capabilities["files"] as? [String: Any])
                #expect(files["bigfilechunking"] as? Bool == true)
                #expect(files["versioning"] as? Bool == true)
                let checksums = try #require(capabilities["checksums"] as? [String: Any])
                #expect((checksums["supportedTypes"] as? [String])?.contains("SHA1") == true)
            }
            // Without format=json, OCS answers XML.
            let xml = try await nextcloud.send(
                "GET", nextcloud.baseURL.appending(path: "ocs/v1.php/cloud/capabilities"))
            let document = try XMLTree.parse(xml.body)
            #expect(document.name == "ocs")
            #expect(document.child("meta", namespace: "")?.value("statuscode") == "100")
        }
    }

    @Test func theUserEndpointNamesTheUserAndTheOCSRefusesStrangers() async throws {
        try await NextcloudHarness.with { nextcloud in
            var components = try #require(
                URLComponents(
                    url: nextcloud.baseURL.appending(path: "ocs/v2.php/cloud/user"), resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "format", value: "json")]
            let url = try #require(components.url)
            let response = try await nextcloud.send("GET", url, headers: [("OCS-APIRequest", "true")])
            let ocs = try #require(try Self.json(response.body)["ocs"] as? [String: Any])
            let data = try #require(ocs["data"] as? [String: Any])
            #expect(data["id"] as? String == NextcloudHarness.user)
            #expect(data["display-name"] as? String == NextcloudHarness.user)
            #expect((data["quota"] as? [String: Any])?["quota"] as? Int == -3)

            let stranger = try await nextcloud.send("GET", url, credentials: "alice:wrong")
            #expect(stranger.status == 401)
            let absent = try await nextcloud.send(
                "GET", nextcloud.baseURL.appending(path: "ocs/v2.php/apps/notifications/api/v2/notifications"))
            #expect(absent.status == 404)
        }
    }

    /// The client's discovery: ids in Nextcloud's formats, permissions, sizes (a folder's is the
    /// sum below it), quoted ETags, in `application/xml; charset=utf-8`; what the mock lacks is
    /// in a 404 propstat.
    @Test func aPropfindAnswersThePropertiesTheClientAsksForInItsFormats() async throws {
        try await NextcloudHarness.with { nextcloud in
            #expect(try await nextcloud.send("MKCOL", nextcloud.fileURL("docs")).status == 201)
            let put = try await nextcloud.send(
                "PUT", nextcloud.fileURL("docs/a.txt"), body: Data("abc".utf8),
                headers: [
                    ("X-OC-Mtime", "1600000000"), ("OC-Checksum", "SHA1:a9993e364706816aba3e25717850c26c9cd0d89d"),
                ]
            )
            #expect(put.status == 201)
            #expect(put.headers["X-OC-MTime"] == "accepted")
            let fileID = try #require(put.headers["OC-FileId"])
            #expect(fileID.count == 8 + 12 && fileID.hasPrefix("00000") && fileID.hasSuffix("ocnextcloud1"))

            let body = """
                <?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">\
                <d:prop><d:resourcetype/><d:getlastmodified/><d:getcontentlength/><d:getetag/><oc:size/><oc:id/><oc:fileid/>\
                <oc:permissions/><oc:checksums/><oc:downloadURL/><nc:has-preview/></d:prop></d:propfind>
                """
            let response = try await nextcloud.send(
                "PROPFIND", nextcloud.fileURL("docs"), body: Data(body.utf8), headers: [("Depth", "1")])
            #expect(response.status == 207)
            #expect(response.headers["Content-Type"] == "application/xml; charset=utf-8")
            let listing = try XMLTree.parse(response.body)
            var found: [String: [String: String]] = [:]
            var missing: [String: [String]] = [:]
            for entry in listing.children("response", namespace: "DAV:") {
                let href = entry.value("href") ?? ""
                for propstat in entry.children("propstat", namespace: "DAV:") {
                    let properties = propstat.child("prop", namespace: "DAV:")?.children ?? []
                    if propstat.value("status")?.contains(" 200 ") == true {
                        for property in properties {
                            found[href, default: [:]][property.name] =
                                property.name == "checksums" ? property.value("checksum") : property.text
                        }
                    } else {
                        missing[href, default: []] += properties.map(\.name)
                    }
                }
            }
            let folder = try #require(found.first { $0.key.hasSuffix("/docs/") }?.value)
            let file = try #require(found.first { $0.key.hasSuffix("/docs/a.txt") }?.value)
            #expect(folder["permissions"] == "RGDNVCK")
            #expect(file["permissions"] == "RGDNVW")
            #expect(folder["size"] == "3")
            #expect(file["size"] == "3" && file["getcontentlength"] == "3")
            #expect(file["getetag"]?.hasPrefix("\"") == true && file["getetag"] == put.headers["ETag"])
            #expect(file["id"] == fileID)
            #expect(file["fileid"].flatMap { Int($0) } == Int(fileID.prefix(8)))
            #expect(file["checksums"] == "SHA1:a9993e364706816aba3e25717850c26c9cd0d89d")
            #expect(file["getlastmodified"] == "Sun, 13 Sep 2020 12:26:40 GMT")
            #expect(file["has-preview"] == "false")
            let fileMissing = missing.first { $0.key.hasSuffix("/docs/a.txt") }?.value ?? []
            #expect(fileMissing == ["downloadURL"])
            let folderMissing = missing.first { $0.key.hasSuffix("/docs/") }?.value ?? []
            #expect(Set(folderMissing) == ["getcontentlength", "checksums", "downloadURL"])

            let read = try await nextcloud.send("GET", nextcloud.fileURL("docs/a.txt"))
            #expect(read.headers["OC-Checksum"] == "SHA1:a9993e364706816aba3e25717850c26c9cd0d89d")
        }
    }

    /// A renamed file keeps its id and ETag (a client that renamed it has nothing to download),
    /// and the answer names them; the folders above both places get new ETags.
    @Test func aMoveKeepsTheFilesIdAndETagAndAnswersWithThem() async throws {
        try await NextcloudHarness.with { nextcloud in
            #expect(try await nextcloud.send("MKCOL", nextcloud.fileURL("a")).status == 201)
            let put = try await nextcloud.send("PUT", nextcloud.fileURL("a/f.txt"), body: Data("f".utf8))
            let rootBefore = NextcloudHarness.found(
                try await nextcloud.propfind(nextcloud.fileURL(""), properties: [("DAV:", "getetag")]), "DAV:",
                "getetag")
            let moved = try await nextcloud.send(
                "MOVE", nextcloud.fileURL("a/f.txt"),
                headers: [("Destination", nextcloud.fileURL("g.txt").absoluteString)])
            #expect(moved.status == 201)
            #expect(moved.headers["OC-FileId"] == put.headers["OC-FileId"])
            #expect(moved.headers["ETag"] == put.headers["ETag"])
            let listed = try await nextcloud.propfind(nextcloud.fileURL("g.txt"), properties: [("DAV:", "getetag")])
            #expect(NextcloudHarness.found(listed, "DAV:", "getetag") == put.headers["ETag"])
            let rootAfter = NextcloudHarness.found(
                try await nextcloud.propfind(nextcloud.fileURL(""), properties: [("DAV:", "getetag")]), "DAV:",
                "getetag")
            #expect(rootAfter != rootBefore)
            let intoItself = try await nextcloud.send(
                "MOVE", nextcloud.fileURL("a"), headers: [("Destination", nextcloud.fileURL("a/b").absoluteString)])
            #expect(intoItself.status == 403)
        }
    }

    /// The legacy files path the capabilities name (`core.webdav-root`) holds the same files,
    /// with hrefs under itself.
    @Test func theLegacyWebDAVRootServesTheSameFiles() async throws {
        try await NextcloudHarness.with { nextcloud in
            let legacy = nextcloud.baseURL.appending(path: "remote.php/webdav/")
            #expect(
                try await nextcloud.send("PUT", legacy.appending(path: "old.txt"), body: Data("o".utf8)).status == 201)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("old.txt")).body == Data("o".utf8))
            let listing = try await nextcloud.propfind(legacy, depth: "1", properties: [("DAV:", "getetag")])
            let hrefs = listing.children("response", namespace: "DAV:").compactMap { $0.value("href") }
            #expect(hrefs == ["/remote.php/webdav/", "/remote.php/webdav/old.txt"])
            let moved = try await nextcloud.send(
                "MOVE", legacy.appending(path: "old.txt"),
                headers: [("Destination", legacy.appending(path: "new.txt").absoluteString)])
            #expect(moved.status == 201)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("new.txt")).status == 200)
        }
    }

    /// A file PUT with a stale `If-Match`, or `If-None-Match: *` on a file that exists, is 412
    /// and leaves the file as it was, as Sabre's precondition checks do.
    @Test func aPutHonoursIfMatchAndIfNoneMatch() async throws {
        try await NextcloudHarness.with { nextcloud in
            let url = nextcloud.fileURL("c.txt")
            let first = try await nextcloud.send("PUT", url, body: Data("1".utf8), headers: [("If-None-Match", "*")])
            #expect(first.status == 201)
            let etag = try #require(first.headers["ETag"])
            #expect(
                try await nextcloud.send("PUT", url, body: Data("2".utf8), headers: [("If-None-Match", "*")]).status
                    == 412)
            #expect(
                try await nextcloud.send("PUT", url, body: Data("2".utf8), headers: [("If-Match", "\"stale\"")]).status
                    == 412)
            #expect(try await nextcloud.send("GET", url).body == Data("1".utf8))
            #expect(
                try await nextcloud.send("PUT", url, body: Data("2".utf8), headers: [("If-Match", etag)]).status == 204)
            let absent = try await nextcloud.send(
                "PUT", nextcloud.fileURL("d.txt"), body: Data("x".utf8), headers: [("If-Match", "*")])
            #expect(absent.status == 412)
        }
    }
}
