import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("changes")
struct ChangeTests {
    /// Reads every page from `token`; returns the changes, the page count and the new start token.
    static func drain(_ harness: DriveHarness, from token: String, query: [(String, String)] = []) async throws -> (
        [[String: Any]], Int, String
    ) {
        var changes: [[String: Any]] = []
        var token = token
        for pages in 1...20 {
            let response = try await harness.send(.get, "/drive/v3/changes", query: [("pageToken", token)] + query)
            #expect(response.status == 200, "\(DriveHarness.text(response))")
            let page = try DriveHarness.object(response)
            if !query.contains(where: { $0.0 == "fields" }) {
                #expect(page["kind"] as? String == "drive#changeList")
            }
            changes += page["changes"] as? [[String: Any]] ?? []
            if let start = page["newStartPageToken"] as? String {
                #expect(page["nextPageToken"] == nil)
                return (changes, pages, start)
            }
            token = try #require(page["nextPageToken"] as? String)
        }
        Issue.record("changes never ended")
        return (changes, 20, token)
    }

    @Test("getStartPageToken, then every create, update, trash and delete shows up, paged, newest state once per file")
    func paging() async throws {
        try await DriveMockProvider().withSession { harness in
            let startResponse = try DriveHarness.object(
                try await harness.send(.get, "/drive/v3/changes/startPageToken"))
            #expect(startResponse["kind"] as? String == "drive#startPageToken")
            let start = try #require(startResponse["startPageToken"] as? String)

            let empty = try await Self.drain(harness, from: start)
            #expect(empty.0.isEmpty)
            #expect(empty.2 == start)

            var ids: [String] = []
            for index in 0..<5 {
                ids.append(
                    try #require(try await harness.createFile("f\(index).txt", Data("\(index)".utf8))["id"] as? String))
            }
            _ = try await harness.send(.patch, "/drive/v3/files/\(ids[0])", json: ["name": "renamed.txt"])
            _ = try await harness.send(.patch, "/drive/v3/files/\(ids[1])", json: ["trashed": true])
            _ = try await harness.send(.delete, "/drive/v3/files/\(ids[2])")

            let (changes, pages, next) = try await Self.drain(harness, from: start, query: [("pageSize", "2")])
            #expect(pages == 3)
            #expect(changes.count == 5)
            #expect(Set(changes.compactMap { $0["fileId"] as? String }) == Set(ids))
            let renamed = try #require(changes.first { $0["fileId"] as? String == ids[0] })
            #expect((renamed["file"] as? [String: Any])?["name"] as? String == "renamed.txt")
            #expect(renamed["kind"] as? String == "drive#change")
            #expect(renamed["changeType"] as? String == "file")
            #expect(renamed["removed"] as? Bool == false)
            let removed = try #require(changes.first { $0["fileId"] as? String == ids[2] })
            #expect(removed["removed"] as? Bool == true)
            #expect(removed["file"] == nil)
            #expect((removed["time"] as? String)?.hasSuffix("Z") == true)

            let withoutRemoved = try await Self.drain(harness, from: start, query: [("includeRemoved", "false")])
            #expect(withoutRemoved.0.count == 4)
            let fields = try await Self.drain(
                harness, from: start,
                query: [("fields", "newStartPageToken,nextPageToken,changes(fileId,file/trashed)")])
            let trashed = try #require(fields.0.first { $0["fileId"] as? String == ids[1] })
            #expect(Set(trashed.keys) == ["fileId", "file"])
            #expect((trashed["file"] as? [String: Any])?["trashed"] as? Bool == true)

            let after = try await Self.drain(harness, from: next)
            #expect(after.0.isEmpty)
        }
    }

    @Test("appDataFolder changes appear only with spaces=appDataFolder")
    func spaces() async throws {
        try await DriveMockProvider().withSession { harness in
            let start = try #require(
                try DriveHarness.object(try await harness.send(.get, "/drive/v3/changes/startPageToken"))[
                    "startPageToken"] as? String)
            try await harness.createFile("hidden", Data("h".utf8), parent: "appDataFolder")
            try await harness.createFile("shown", Data("s".utf8))
            let drive = try await Self.drain(harness, from: start)
            #expect(drive.0.compactMap { ($0["file"] as? [String: Any])?["name"] as? String } == ["shown"])
            let app = try await Self.drain(harness, from: start, query: [("spaces", "appDataFolder")])
            #expect(app.0.compactMap { ($0["file"] as? [String: Any])?["name"] as? String } == ["hidden"])
        }
    }

    @Test("pageToken is required and must be one the server issued")
    func tokens() async throws {
        try await DriveMockProvider().withSession { harness in
            let missing = try await harness.send(.get, "/drive/v3/changes")
            #expect(missing.status == 400)
            let error = try DriveHarness.error(missing)
            #expect(error.reason == "required")
            #expect(error.location == "pageToken")
            for bad in ["abc", "0", "999999"] {
                let response = try await harness.send(.get, "/drive/v3/changes", query: [("pageToken", bad)])
                #expect(response.status == 400, "\(bad)")
                #expect(try DriveHarness.error(response).reason == "invalid")
            }
        }
    }
}
