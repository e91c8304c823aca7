import Foundation
import MockOneDrive
import MockProviders
import MockSupport
import StratusHTTP
import Testing

@Suite("Graph mock: upload sessions")
struct UploadSessionTests {
    static let unit = 320 * 1024

    /// Creates a session and returns its upload URL.
    static func session(
        _ harness: OneDriveHarness, _ path: String, item: [String: Any] = [:], headers: [(String, String)] = []
    ) async throws -> (URL, StratusHTTPResponse) {
        let response = try await harness.send(
            .post, "/v1.0/me/drive/\(path)/createUploadSession", json: ["item": item], headers: headers)
        guard response.status == 200 else { return (try #require(harness.contentURL), response) }
        let body = try OneDriveHarness.object(response)
        #expect((body["nextExpectedRanges"] as? [String]) == ["0-"])
        #expect(body["expirationDateTime"] is String)
        return (try #require((body["uploadUrl"] as? String).flatMap(URL.init(string:))), response)
    }

    static func fragment(
        _ harness: OneDriveHarness, _ url: URL, _ data: Data, from start: Int, total: Int, token: String? = nil
    ) async throws -> StratusHTTPResponse {
        try await harness.send(
            .put, absolute: url, body: data,
            headers: [("Content-Range", "bytes \(start)-\(start + data.count - 1)/\(total)")], token: token)
    }

    @Test("fragments in order, 320 KiB multiples, 202 with nextExpectedRanges, 416 for a repeat, 201 with the item")
    func wholeSession() async throws {
        try await OneDriveMockProvider(options: .init(strictClient: true)).withSession { harness in
            let content = OneDriveHarness.bytes(2 * Self.unit + 1000)
            let (url, _) = try await Self.session(harness, "special/approot:/big/large.bin:")
            #expect(url.port == harness.contentURL?.port)
            let first = content[0..<Self.unit]

            let authorized = try await Self.fragment(
                harness, url, Data(first), from: 0, total: content.count, token: harness.token)
            #expect(authorized.status == 401)
            let odd = try await Self.fragment(harness, url, Data(content[0..<1000]), from: 0, total: content.count)
            #expect(odd.status == 400)
            #expect(try OneDriveHarness.errorCodes(odd).first == "invalidRange")
            let gap = try await Self.fragment(harness, url, Data(first), from: Self.unit, total: content.count)
            #expect(gap.status == 416)

            let accepted = try await Self.fragment(harness, url, Data(first), from: 0, total: content.count)
            #expect(accepted.status == 202)
            #expect(
                try OneDriveHarness.object(accepted)["nextExpectedRanges"] as? [String] == [
                    "\(Self.unit)-\(content.count - 1)"
                ])
            let repeated = try await Self.fragment(harness, url, Data(first), from: 0, total: content.count)
            #expect(repeated.status == 416)
            let status = try OneDriveHarness.object(try await harness.send(.get, absolute: url))
            #expect((status["nextExpectedRanges"] as? [String])?.first?.hasPrefix("\(Self.unit)-") == true)

            let rest = Data(content[Self.unit...])
            let second = try await Self.fragment(
                harness, url, Data(rest.prefix(Self.unit)), from: Self.unit, total: content.count)
            #expect(second.status == 202)
            let last = try await Self.fragment(
                harness, url, Data(rest.dropFirst(Self.unit)), from: 2 * Self.unit, total: content.count)
            #expect(last.status == 201, "\(OneDriveHarness.text(last))")
            let item = try OneDriveHarness.object(last)
            #expect(item["size"] as? Int == content.count)
            let hashes = (item["file"] as? [String: Any])?["hashes"] as? [String: Any]
            #expect(hashes?["quickXorHash"] as? String == QuickXorReference.hash(content))
            #expect(try await harness.send(.get, absolute: url).status == 404)
            #expect(harness.server.openUploadSessions == 0)
            let downloaded = try await harness.download("/v1.0/me/drive/special/approot:/big/large.bin:")
            #expect(downloaded.body == content)
        }
    }

    @Test("a session on a taken name replaces the file unless the item says fail; If-Match is checked")
    func conflicts() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let old = try await harness.put("/taken.bin", Data("old".utf8))
            let content = Data("new content".utf8)
            let (plain, _) = try await Self.session(harness, "root:/taken.bin:")
            let overwritten = try await Self.fragment(harness, plain, content, from: 0, total: content.count)
            #expect(overwritten.status == 200, "\(OneDriveHarness.text(overwritten))")
            #expect(try OneDriveHarness.object(overwritten)["id"] as? String == old["id"] as? String)
            #expect(try await harness.download("/v1.0/me/drive/root:/taken.bin:").body == content)

            let (failing, _) = try await Self.session(
                harness, "root:/taken.bin:", item: ["@microsoft.graph.conflictBehavior": "fail"])
            let refused = try await Self.fragment(harness, failing, content, from: 0, total: content.count)
            #expect(refused.status == 409)
            #expect(try OneDriveHarness.errorCodes(refused).first == "nameAlreadyExists")

            let (_, stale) = try await Self.session(
                harness, "root:/taken.bin:", item: ["@microsoft.graph.conflictBehavior": "replace"],
                headers: [("If-Match", "aXN0YWxl")])
            #expect(stale.status == 412)

            let eTag = try #require(try await harness.item("/taken.bin")["eTag"] as? String)
            let (replacing, _) = try await Self.session(
                harness, "root:/taken.bin:", item: ["@microsoft.graph.conflictBehavior": "replace"],
                headers: [("If-Match", eTag)])
            let replaced = try await Self.fragment(harness, replacing, content, from: 0, total: content.count)
            #expect(replaced.status == 200)

            let id = try #require(old["id"] as? String)
            let (byID, _) = try await Self.session(harness, "items/\(id)")
            let updated = try await Self.fragment(harness, byID, Data("by id".utf8), from: 0, total: 5)
            #expect(updated.status == 200)
            #expect(try OneDriveHarness.object(updated)["id"] as? String == id)
        }
    }

    @Test("as Graph: a bearer token on the session URL is ignored, a fragment off the 320 KiB grid is taken")
    func lenientByDefault() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let content = OneDriveHarness.bytes(3000)
            let (url, _) = try await Self.session(harness, "root:/odd.bin:")
            let first = try await Self.fragment(
                harness, url, Data(content[0..<1000]), from: 0, total: content.count, token: harness.token)
            #expect(first.status == 202, "\(OneDriveHarness.text(first))")
            #expect(try OneDriveHarness.object(first)["nextExpectedRanges"] as? [String] == ["1000-2999"])
            let last = try await Self.fragment(harness, url, Data(content[1000...]), from: 1000, total: content.count)
            #expect(last.status == 201, "\(OneDriveHarness.text(last))")
            #expect(try await harness.download("/v1.0/me/drive/root:/odd.bin:").body == content)
        }
    }

    @Test("item.fileSystemInfo of the session is the file's fileSystemInfo")
    func fileSystemInfo() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let content = Data("dated".utf8)
            let dates = ["createdDateTime": "2020-01-02T03:04:05Z", "lastModifiedDateTime": "2021-06-07T08:09:10.5Z"]
            let (url, _) = try await Self.session(harness, "root:/dated.txt:", item: ["fileSystemInfo": dates])
            let done = try await Self.fragment(harness, url, content, from: 0, total: content.count)
            #expect(done.status == 201)
            let info = try OneDriveHarness.object(done)["fileSystemInfo"] as? [String: Any]
            #expect(info?["createdDateTime"] as? String == "2020-01-02T03:04:05.000Z")
            #expect(info?["lastModifiedDateTime"] as? String == "2021-06-07T08:09:10.500Z")
            let read = try await harness.item("/dated.txt")["fileSystemInfo"] as? [String: Any]
            #expect(read?["lastModifiedDateTime"] as? String == "2021-06-07T08:09:10.500Z")
        }
    }

    @Test("DELETE cancels a session; expired sessions answer 404")
    func cancelAndExpire() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let (cancelled, _) = try await Self.session(harness, "root:/c.bin:")
            #expect(try await harness.send(.delete, absolute: cancelled).status == 204)
            #expect(try await harness.send(.get, absolute: cancelled).status == 404)
            let (expiring, _) = try await Self.session(harness, "root:/e.bin:")
            harness.server.expireUploadSessions()
            let late = try await Self.fragment(harness, expiring, Data("x".utf8), from: 0, total: 1)
            #expect(late.status == 404)
            #expect(try OneDriveHarness.errorCodes(late).first == "itemNotFound")
        }
    }

    @Test(
        "eTag drift: the eTag an upload answered is stale by the next request; If-Match with it is 412, the cTag holds")
    func eTagDrift() async throws {
        try await OneDriveMockProvider(options: .init(eTagDriftAfterUpload: true)).withSession { harness in
            let uploaded = try await harness.put("/drift.txt", Data("d".utf8))
            let now = try await harness.item("/drift.txt")
            #expect(now["eTag"] as? String != uploaded["eTag"] as? String)
            #expect(now["cTag"] as? String == uploaded["cTag"] as? String)
            let eTag = try #require(uploaded["eTag"] as? String)
            let (_, refused) = try await Self.session(
                harness, "root:/drift.txt:", item: ["@microsoft.graph.conflictBehavior": "replace"],
                headers: [("If-Match", eTag)])
            #expect(refused.status == 412)
            let current = try #require(now["eTag"] as? String)
            let (_, accepted) = try await Self.session(
                harness, "root:/drift.txt:", item: ["@microsoft.graph.conflictBehavior": "replace"],
                headers: [("If-Match", current)])
            #expect(accepted.status == 200)
        }
    }

    @Test(
        "a fragment whose connection dropped is not kept: the status says where to resume, and the resent one is taken")
    func droppedFragment() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let content = OneDriveHarness.bytes(Self.unit + 500)
            let (url, _) = try await Self.session(harness, "root:/resumed.bin:")
            harness.server.faults.add(
                FaultRule(route: "/upload/*", method: "PUT", fault: .dropAfterRequestBytes(100_000)))
            let first = Data(content.prefix(Self.unit))
            await #expect(throws: (any Error).self) {
                _ = try await Self.fragment(harness, url, first, from: 0, total: content.count)
            }
            var accepted = try await Self.fragment(harness, url, first, from: 0, total: content.count)
            // The dropped request's handler may still be letting go of the session.
            var attempts = 0
            while accepted.status == 409, attempts < 200 {
                try await Task.sleep(for: .milliseconds(25))
                attempts += 1
                accepted = try await Self.fragment(harness, url, first, from: 0, total: content.count)
            }
            #expect(accepted.status == 202, "\(OneDriveHarness.text(accepted))")
            let status = try OneDriveHarness.object(try await harness.send(.get, absolute: url))
            #expect((status["nextExpectedRanges"] as? [String])?.first?.hasPrefix("\(Self.unit)-") == true)
            let last = try await Self.fragment(
                harness, url, Data(content.dropFirst(Self.unit)), from: Self.unit, total: content.count)
            #expect(last.status == 201)
            #expect(try await harness.download("/v1.0/me/drive/root:/resumed.bin:").body == content)
        }
    }
}
