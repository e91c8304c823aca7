import Foundation
import Hummingbird
import Stratus
import StratusTestSupport
import Testing

@testable import StratusOneDrive

/// Servers that would hold the adapter forever: pages that link back to themselves or to an
/// earlier page, listings without end, upload sessions that never move forward. Each must end
/// with a typed error after a bounded number of requests.
@Suite("OneDrive against hostile servers")
struct HostileGraphTests {
    /// A versions page whose `@odata.nextLink` is itself: `metadata`, `versions` and `restore`
    /// each stop at the second page.
    @Test func versionsPageThatLinksToItselfIsRefused() async throws {
        let server = ScriptedGraphServer { request in
            if request.path.hasSuffix("/versions") {
                return ScriptedGraphServer.json([
                    "value": [["id": "1.0", "size": 5, "lastModifiedDateTime": "2026-01-01T00:00:00Z"]],
                    "@odata.nextLink": request.selfLink,
                ])
            }
            if request.path.contains("a.txt") || request.path.hasSuffix("/items/F1") {
                return ScriptedGraphServer.json(ScriptedGraphServer.file)
            }
            return ScriptedGraphServer.notFound
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL)
            let path = try RemotePath("a.txt")
            for call in [
                { @Sendable in _ = try await service.metadata(of: path) },
                { @Sendable in _ = try await service.versions(of: path) },
                { @Sendable in _ = try await service.restore(path, to: VersionID("1.0")) },
            ] {
                let before = server.tally.requests("GET")
                let outcome = await ScriptedGraphServer.racing(call)
                #expect(server.tally.requests("GET") - before <= 4)
                await expectServiceError(.invalidResponse) { try outcome.get() }
            }
        }
    }

    /// Children pages that point at each other (A → B → A): the listing stops at the third.
    @Test func childrenPagesInACycleAreRefused() async throws {
        let server = ScriptedGraphServer { request in
            guard request.path.hasSuffix("/children") else { return ScriptedGraphServer.notFound }
            let other = request.query.contains("page=b") ? "a" : "b"
            return ScriptedGraphServer.json([
                "value": [[String: Any]](),
                "@odata.nextLink": request.base + request.rawPath + "?page=" + other,
            ])
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL)
            let outcome = await ScriptedGraphServer.racing { try await service.list(.root) }
            #expect(server.tally.requests() <= 4)
            let error = await expectServiceError(.invalidResponse) { try outcome.get() }
            #expect(error?.message.contains("page=") == false, "links stay out of messages")
        }
    }

    /// Children pages with a new link each time stop at the configured page bound.
    @Test func childrenPagesWithoutEndStopAtTheBound() async throws {
        let server = ScriptedGraphServer { request in
            guard request.path.hasSuffix("/children") else { return ScriptedGraphServer.notFound }
            let page = request.query.split(separator: "&").compactMap { $0.split(separator: "=").last }.first ?? "0"
            return ScriptedGraphServer.json([
                "value": [["id": "x\(page)", "name": "f\(page)", "folder": ["childCount": 0]]],
                "@odata.nextLink": request.base + request.rawPath + "?n=\(UUID().uuidString)",
            ])
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL, maximumPages: 7)
            let outcome = await ScriptedGraphServer.racing { try await service.list(.root) }
            #expect(server.tally.requests() <= 7)
            await expectServiceError(.invalidResponse) { try outcome.get() }
        }
    }

    /// A server whose every folder holds one more folder: the listing ends with
    /// `invalidResponse` at OneDrive's path length (400 characters) instead of descending forever.
    @Test func foldersWithoutEndStopAtThePathLimit() async throws {
        let server = ScriptedGraphServer(fuse: 1000) { request in
            guard request.path.hasSuffix("/children") else { return ScriptedGraphServer.notFound }
            return ScriptedGraphServer.json([
                "value": [["id": UUID().uuidString, "name": "deeper", "folder": ["childCount": 1]]]
            ])
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL)
            let outcome = await ScriptedGraphServer.racing { try await service.list(.root) }
            // 400 characters hold 57 levels of "deeper/".
            #expect(server.tally.requests() <= 60)
            await expectServiceError(.invalidResponse) { try outcome.get() }
        }
    }

    /// `latestChangeToken` over a `token=latest` page that names itself as the next page.
    @Test func latestChangeTokenStopsOnARepeatedLink() async throws {
        let server = ScriptedGraphServer { request in
            if request.path.hasSuffix("/delta") {
                return ScriptedGraphServer.json([
                    "value": [[String: Any]](),
                    "@odata.nextLink": request.base + request.rawPath + "?token=latest",
                ])
            }
            if request.path.hasSuffix("/approot") { return ScriptedGraphServer.json(ScriptedGraphServer.rootFolder) }
            return ScriptedGraphServer.notFound
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL)
            let outcome = await ScriptedGraphServer.racing { try await service.latestChangeToken() }
            #expect(server.tally.requests() <= 5)
            await expectServiceError(.invalidResponse) { try outcome.get() }
        }
    }

    /// A delta page whose `@odata.nextLink` is the page itself would hand the caller the token it
    /// gave, with `hasMore`, forever.
    @Test func deltaPageThatLinksToItselfIsRefused() async throws {
        let server = ScriptedGraphServer { request in
            if request.path.hasSuffix("/delta") {
                return ScriptedGraphServer.json([
                    "value": [[String: Any]](), "@odata.nextLink": request.base + request.rawPath + "?token=t1",
                ])
            }
            if request.path.hasSuffix("/approot") { return ScriptedGraphServer.json(ScriptedGraphServer.rootFolder) }
            return ScriptedGraphServer.notFound
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL)
            let token = OneDriveChangeCursor(
                link: apiURL.absoluteString + "/me/drive/special/approot/delta?token=t1"
            ).token
            await expectServiceError(.invalidResponse) { try await service.changes(since: token) }
        }
    }

    /// An upload session whose every 202 asks for byte 0 again ends after a few fragments.
    @Test func uploadSessionThatNeverMovesEnds() async throws {
        let server = ScriptedGraphServer { request in
            if request.path.hasSuffix("/createUploadSession") {
                return ScriptedGraphServer.json(["uploadUrl": request.base + "/upload/s1"])
            }
            if request.method == "PUT", request.path == "/upload/s1" {
                return ScriptedGraphServer.json(["nextExpectedRanges": ["0-"]], status: .accepted)
            }
            return ScriptedGraphServer.notFound
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL)
            let content = Data(repeating: 7, count: 1_048_576)
            let outcome = await ScriptedGraphServer.racing {
                try await service.upload(from: .bytes(content), to: RemotePath("big.bin"), options: UploadOptions())
            }
            #expect(server.tally.requests("PUT") <= 3)
            await expectServiceError(.invalidResponse) { try outcome.get() }
        }
    }

    /// An upload session that takes one byte of each fragment moves, but too slowly to ever end
    /// honestly: the fragment budget (twice the plan plus retries) ends it.
    @Test func uploadSessionThatCrawlsEnds() async throws {
        let server = ScriptedGraphServer { request in
            if request.path.hasSuffix("/createUploadSession") {
                return ScriptedGraphServer.json(["uploadUrl": request.base + "/upload/s2"])
            }
            if request.method == "PUT", request.path == "/upload/s2", let start = request.rangeStart {
                return ScriptedGraphServer.json(["nextExpectedRanges": ["\(start + 1)-"]], status: .accepted)
            }
            return ScriptedGraphServer.notFound
        }
        try await server.run { apiURL in
            let service = try ScriptedGraphServer.service(apiURL)
            let content = Data(repeating: 7, count: 1_048_576)
            let outcome = await ScriptedGraphServer.racing {
                try await service.upload(from: .bytes(content), to: RemotePath("big.bin"), options: UploadOptions())
            }
            // 1 MiB in 320 KiB fragments is 4 fragments: at most 2 × 4 + 3.
            #expect(server.tally.requests("PUT") <= 11)
            await expectServiceError(.invalidResponse) { try outcome.get() }
        }
    }
}
