import Foundation
import MockDropbox
import MockProviders
import StratusHTTP
import Testing

/// `users/get_current_account` and `users/get_space_usage`.
@Suite("User routes")
struct UserRoutesTests {
    /// A call to `/2/users/<route>` with a raw body and, when given, a `Content-Type`.
    static func call(
        _ harness: DropboxHarness, _ route: String, body: String?, contentType: String? = "application/json",
        token: String? = nil
    ) async throws -> StratusHTTPResponse {
        var headers = harness.headers(token: token ?? harness.token)
        if let contentType { headers.set("Content-Type", contentType) }
        let url = harness.baseURL.appendingPathComponent("2/users/" + route)
        return try await harness.client.execute(
            StratusHTTPRequest(method: .post, url: url, headers: headers, body: .bytes(Data((body ?? "").utf8))))
    }

    @Test("get_current_account answers a FullAccount of a basic user, the same on every call")
    func currentAccount() async throws {
        try await DropboxMockProvider().withSession { harness in
            let response = try await Self.call(harness, "get_current_account", body: "null")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            let account = try DropboxHarness.object(response)
            let accountID = try #require(account["account_id"] as? String)
            #expect(accountID == harness.authorization.configuration.accountID)
            #expect(accountID.count == 40)
            let name = try #require(account["name"] as? [String: Any])
            for field in ["given_name", "surname", "familiar_name", "display_name", "abbreviated_name"] {
                #expect(name[field] is String, "\(field)")
            }
            #expect((account["email"] as? String)?.contains("@") == true)
            #expect(account["email_verified"] as? Bool == true)
            #expect(account["disabled"] as? Bool == false)
            #expect(account["is_paired"] as? Bool == false)
            #expect((account["locale"] as? String)?.count ?? 0 >= 2)
            #expect((account["country"] as? String)?.count == 2)
            #expect(account["referral_link"] is String)
            #expect((account["account_type"] as? [String: Any])?[".tag"] as? String == "basic")
            let root = try #require(account["root_info"] as? [String: Any])
            #expect(root[".tag"] as? String == "user")
            let namespace = try #require(root["root_namespace_id"] as? String)
            #expect(!namespace.isEmpty && namespace.allSatisfy(\.isNumber))
            #expect(root["home_namespace_id"] as? String == namespace)

            // curl and the Go SDK send no body at all.
            let bare = try await Self.call(harness, "get_current_account", body: nil, contentType: nil)
            #expect(bare.status == 200)
            #expect(NSDictionary(dictionary: try DropboxHarness.object(bare)) == NSDictionary(dictionary: account))
        }
    }

    @Test("get_space_usage counts live files' current revisions against an individual allocation")
    func spaceUsage() async throws {
        try await DropboxMockProvider(options: .init(allocatedSpace: 1_000_000)).withSession { harness in
            func usage() async throws -> (used: Int64?, allocation: [String: Any]?) {
                let response = try await Self.call(harness, "get_space_usage", body: "null")
                #expect(response.status == 200)
                let object = try DropboxHarness.object(response)
                return ((object["used"] as? NSNumber)?.int64Value, object["allocation"] as? [String: Any])
            }
            let empty = try await usage()
            #expect(empty.used == 0)
            #expect(empty.allocation?[".tag"] as? String == "individual")
            #expect((empty.allocation?["allocated"] as? NSNumber)?.int64Value == 1_000_000)

            try await harness.upload("/a.txt", "12345")
            try await harness.upload("/a.txt", "123", mode: "overwrite")
            try await harness.upload("/dir/b.txt", "1234567")
            #expect(try await usage().used == 10)
            _ = try await harness.rpc("copy_v2", ["from_path": "/dir", "to_path": "/dir2"])
            #expect(try await usage().used == 17)
            _ = try await harness.rpc("delete_v2", ["path": "/dir"])
            #expect(try await usage().used == 10)
        }
    }

    @Test("The default allocation is 2 GiB")
    func defaultAllocation() async throws {
        try await DropboxMockProvider().withSession { harness in
            let response = try await Self.call(harness, "get_space_usage", body: nil, contentType: nil)
            let allocation = try DropboxHarness.object(response)["allocation"] as? [String: Any]
            #expect((allocation?["allocated"] as? NSNumber)?.int64Value == 2_147_483_648)
        }
    }

    @Test("A void argument must be null or nothing; the routes need account_info.read")
    func argumentsAndScope() async throws {
        try await DropboxMockProvider().withSession { harness in
            for route in ["get_current_account", "get_space_usage"] {
                let object = try await Self.call(harness, route, body: "{}")
                #expect(object.status == 400, "\(route)")
                #expect(String(decoding: object.body, as: UTF8.self).contains("expected null"), "\(route)")
                #expect(try await Self.call(harness, route, body: "").status == 400, "\(route): JSON type, no body")
                #expect(try await Self.call(harness, route, body: "nul").status == 400, "\(route)")
                #expect(try await Self.call(harness, route, body: "null", contentType: "text/plain").status == 400)

                let filesOnly = harness.authorization.issueTokens(scopes: ["files.content.read"])
                let denied = try await Self.call(harness, route, body: "null", token: filesOnly.accessToken)
                #expect(denied.status == 401)
                let error = try DropboxHarness.object(denied)["error"] as? [String: Any]
                #expect(error?[".tag"] as? String == "missing_scope")
                #expect(error?["required_scope"] as? String == "account_info.read")
            }
        }
    }
}
