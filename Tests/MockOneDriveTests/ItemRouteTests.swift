import Foundation
import MockOneDrive
import MockProviders
import MockSupport
import StratusHTTP
import Testing

@Suite("Graph mock: authorization, items by path and id, simple uploads, children, delete")
struct ItemRouteTests {
    @Test("no, unknown or expired token: 401 InvalidAuthenticationToken")
    func unauthorized() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let none = try await harness.send(.get, "/v1.0/me/drive/root", token: .some(nil))
            #expect(none.status == 401)
            #expect(try OneDriveHarness.errorCodes(none).first == "InvalidAuthenticationToken")
            let unknown = try await harness.send(.get, "/v1.0/me/drive/root", token: "EwAunknown")
            #expect(unknown.status == 401)
            #expect(try await harness.send(.get, "/v1.0/me/drive/root").status == 200)
            harness.server.authorization.expireAllAccessTokens()
            let expired = try await harness.send(.get, "/v1.0/me/drive/root")
            #expect(expired.status == 401)
            #expect(try OneDriveHarness.errorCodes(expired).first == "InvalidAuthenticationToken")
        }
    }

    @Test("the token endpoint answers like Microsoft identity platform v2 and replaces the refresh token")
    func tokenEndpoint() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let tokens = harness.server.authorization.issueTokens()
            let configuration = harness.server.authorization.configuration
            var form = "grant_type=refresh_token&refresh_token=\(tokens.refreshToken)"
            form += "&client_id=\(configuration.clientID)&client_secret=\(configuration.clientSecret ?? "")"
            let response = try await harness.send(
                .post, "/common/oauth2/v2.0/token", body: Data(form.utf8),
                headers: [("Content-Type", "application/x-www-form-urlencoded")], token: .some(nil))
            #expect(response.status == 200, "\(OneDriveHarness.text(response))")
            let body = try OneDriveHarness.object(response)
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["ext_expires_in"] as? Int == body["expires_in"] as? Int)
            let refreshed = try #require(body["refresh_token"] as? String)
            #expect(refreshed != tokens.refreshToken)
            let access = try #require(body["access_token"] as? String)
            #expect(try await harness.send(.get, "/v1.0/me/drive", token: access).status == 200)
        }
    }

    @Test("PUT by path makes the missing folders, answers 201 then 200, with hashes and tags")
    func simpleUpload() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let content = Data("hello onedrive".utf8)
            let created = try await harness.send(.put, "/v1.0/me/drive/root:/a/b/c.txt:/content", body: content)
            #expect(created.status == 201)
            let item = try OneDriveHarness.object(created)
            #expect(item["name"] as? String == "c.txt")
            #expect(item["size"] as? Int == content.count)
            let hashes = try #require((item["file"] as? [String: Any])?["hashes"] as? [String: Any])
            #expect(hashes["quickXorHash"] as? String == QuickXorReference.hash(content))
            #expect((hashes["sha256Hash"] as? String)?.count == 64)
            let modified = try #require(item["lastModifiedDateTime"] as? String)
            #expect(modified.contains(#/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/#))
            let reference = try #require(item["parentReference"] as? [String: Any])
            #expect(reference["path"] as? String == "/drive/root:/a/b")
            #expect(reference["driveId"] as? String == harness.server.driveID)
            let folder = try await harness.item("/a/b")
            #expect((folder["folder"] as? [String: Any])?["childCount"] as? Int == 1)

            let replaced = try await harness.send(
                .put, "/v1.0/me/drive/root:/a/b/c.txt:/content", body: Data("v2".utf8))
            #expect(replaced.status == 200)
            let second = try OneDriveHarness.object(replaced)
            #expect(second["id"] as? String == item["id"] as? String)
            #expect(second["eTag"] as? String != item["eTag"] as? String)
            #expect(second["cTag"] as? String != item["cTag"] as? String)

            let id = try #require(item["id"] as? String)
            let byID = try OneDriveHarness.object(try await harness.send(.get, "/v1.0/me/drive/items/\(id)"))
            #expect(byID["size"] as? Int == 2)
            // Kiota sends a path as an encoded item id.
            let encoded = try await harness.send(.get, "/v1.0/me/drive/items/root%3A%2Fa%2Fb%2Fc.txt%3A")
            #expect(try OneDriveHarness.object(encoded)["id"] as? String == id)
            let drives = try await harness.send(.get, "/v1.0/drives/\(harness.server.driveID)/items/\(id)")
            #expect(drives.status == 200)
            let selected = try OneDriveHarness.object(
                try await harness.send(.get, "/v1.0/me/drive/items/\(id)?$select=id,name"))
            #expect(Set(selected.keys) == ["id", "name"])
            let missing = try await harness.send(.get, "/v1.0/me/drive/root:/nothing/here.txt")
            #expect(missing.status == 404)
            #expect(try OneDriveHarness.errorCodes(missing).first == "itemNotFound")
        }
    }

    @Test("conflict behaviour, If-Match and If-None-Match on PUT")
    func conditions() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let first = try await harness.put("/x.txt", Data("1".utf8))
            let fail = try await harness.send(
                .put, "/v1.0/me/drive/root:/x.txt:/content?@microsoft.graph.conflictBehavior=fail", body: Data("2".utf8)
            )
            #expect(fail.status == 409)
            #expect(try OneDriveHarness.errorCodes(fail).first == "nameAlreadyExists")
            let renamed = try await harness.put(
                "/x.txt", Data("3".utf8), query: "?@microsoft.graph.conflictBehavior=rename")
            #expect(renamed["name"] as? String == "x 1.txt")
            let noneMatch = try await harness.send(
                .put, "/v1.0/me/drive/root:/x.txt:/content", body: Data("4".utf8), headers: [("If-None-Match", "*")])
            #expect(noneMatch.status == 412)
            #expect(try OneDriveHarness.errorCodes(noneMatch).first == "preconditionFailed")
            let fresh = try await harness.send(
                .put, "/v1.0/me/drive/root:/new.txt:/content", body: Data("5".utf8), headers: [("If-None-Match", "*")])
            #expect(fresh.status == 201)
            let wrong = try await harness.send(
                .put, "/v1.0/me/drive/root:/x.txt:/content", body: Data("6".utf8), headers: [("If-Match", "aWRvbmc")])
            #expect(wrong.status == 412)
            let eTag = try #require(first["eTag"] as? String)
            let right = try await harness.send(
                .put, "/v1.0/me/drive/root:/x.txt:/content", body: Data("7".utf8),
                headers: [("If-Match", "\"\(eTag)\"")])
            #expect(right.status == 200)
            let stale = try await harness.send(
                .delete, "/v1.0/me/drive/root:/x.txt", headers: [("If-Match", eTag)])
            #expect(stale.status == 412)
        }
    }

    @Test("children are listed by name in pages joined by @odata.nextLink; folders are made by POST")
    func children() async throws {
        try await OneDriveMockProvider().withSession { harness in
            for name in ["e.txt", "B.txt", "a.txt", "d.txt", "C.txt"] {
                try await harness.put("/list/\(name)", Data(name.utf8))
            }
            let made = try await harness.send(
                .post, "/v1.0/me/drive/root:/list:/children", json: ["name": "sub", "folder": [String: Any]()])
            #expect(made.status == 201)
            let again = try await harness.send(
                .post, "/v1.0/me/drive/root:/list:/children", json: ["name": "SUB", "folder": [String: Any]()])
            #expect(again.status == 409)
            let kept = try await harness.send(
                .post, "/v1.0/me/drive/root:/list:/children?@microsoft.graph.conflictBehavior=replace",
                json: ["name": "sub", "folder": [String: Any]()])
            #expect(kept.status == 200)
            var names: [String] = []
            var next: URL? = URL(string: harness.graphURL.absoluteString + "/v1.0/me/drive/root:/list:/children?$top=2")
            var pages = 0
            while let url = next {
                let page = try OneDriveHarness.object(try await harness.send(.get, absolute: url, token: harness.token))
                names += (page["value"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                next = (page["@odata.nextLink"] as? String).flatMap(URL.init(string:))
                pages += 1
            }
            #expect(names == ["a.txt", "B.txt", "C.txt", "d.txt", "e.txt", "sub"])
            #expect(pages == 3)
        }
    }

    @Test("DELETE removes an item and everything below it: 204, then 404")
    func delete() async throws {
        try await OneDriveMockProvider().withSession { harness in
            try await harness.put("/gone/deep/f.txt", Data("x".utf8))
            let deleted = try await harness.send(.delete, "/v1.0/me/drive/root:/gone")
            #expect(deleted.status == 204)
            #expect(try await harness.send(.get, "/v1.0/me/drive/root:/gone/deep/f.txt").status == 404)
            #expect(try await harness.send(.delete, "/v1.0/me/drive/root:/gone").status == 404)
            let drive = try OneDriveHarness.object(try await harness.send(.get, "/v1.0/me/drive"))
            #expect((drive["quota"] as? [String: Any])?["used"] as? Int == 0)
        }
    }

    @Test("the app folder is /Apps/<name>, made on first use, addressed by path below it")
    func appFolder() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let app = try OneDriveHarness.object(try await harness.send(.get, "/v1.0/me/drive/special/approot"))
            #expect(app["name"] as? String == "Stratus")
            #expect((app["specialFolder"] as? [String: Any])?["name"] as? String == "approot")
            let put = try await harness.send(
                .put, "/v1.0/me/drive/special/approot:/saves/one.sav:/content", body: Data("s".utf8))
            #expect(put.status == 201)
            let item = try await harness.item("/Apps/Stratus/saves/one.sav")
            let appID = try #require(app["id"] as? String)
            let byParent = try await harness.send(.get, "/v1.0/me/drive/items/\(appID):/saves/one.sav:")
            #expect(try OneDriveHarness.object(byParent)["id"] as? String == item["id"] as? String)
        }
    }

    @Test("a 429 fault answers activityLimitReached with Retry-After")
    func throttled() async throws {
        try await OneDriveMockProvider().withSession { harness in
            harness.server.faults.add(
                FaultRule(route: "/v1.0/me/drive/root", fault: .status(429, retryAfter: 3)))
            let throttled = try await harness.send(.get, "/v1.0/me/drive/root")
            #expect(throttled.status == 429)
            #expect(throttled.headers["Retry-After"] == "3")
            #expect(try OneDriveHarness.errorCodes(throttled).first == "activityLimitReached")
            #expect(try await harness.send(.get, "/v1.0/me/drive/root").status == 200)
        }
    }
}
