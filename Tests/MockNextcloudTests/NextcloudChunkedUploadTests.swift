import Foundation
import StratusAdapterKit
import StratusHTTP
import Testing

/// The single-PUT limit and chunked uploads (`/remote.php/dav/uploads/USER/`), spoken to in
/// raw WebDAV as Nextcloud's developer manual describes them.
@Suite struct NextcloudChunkedUploadTests {
    private static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    @Test func aPutAboveTheLimitIsRefusedAsTooLargeAndOneAtTheLimitIsTaken() async throws {
        try await NextcloudHarness.with(largestSinglePut: 1000) { nextcloud in
            let refused = try await nextcloud.send("PUT", nextcloud.fileURL("big.bin"), body: Self.bytes(1001, seed: 1))
            #expect(refused.status == 413)
            let error = try XMLTree.parse(refused.body)
            #expect(error.value("exception")?.hasSuffix("EntityTooLarge") == true)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("big.bin")).status == 404)
            let taken = try await nextcloud.send("PUT", nextcloud.fileURL("big.bin"), body: Self.bytes(1000, seed: 1))
            #expect(taken.status == 201)
        }
    }

    /// A body without `Content-Length` (chunked transfer encoding) is refused once it passes
    /// the limit, and nothing is stored.
    @Test func aStreamedPutIsRefusedOnceItPassesTheLimit() async throws {
        try await NextcloudHarness.with(largestSinglePut: 100_000) { nextcloud in
            let piece = Self.bytes(64 * 1024, seed: 5)
            let body = AsyncThrowingStream<Data, any Error> { continuation in
                for _ in 0..<32 { continuation.yield(piece) }
                continuation.finish()
            }
            let basic = Data("\(NextcloudHarness.user):\(NextcloudHarness.password)".utf8).base64EncodedString()
            let response = try await nextcloud.client.execute(
                StratusHTTPRequest(
                    method: StratusHTTPMethod(rawValue: "PUT"), url: nextcloud.fileURL("streamed.bin"),
                    headers: ["Authorization": "Basic \(basic)"], body: .stream(body, length: nil)))
            #expect(response.status == 413)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("streamed.bin")).status == 404)
        }
    }

    /// Chunks are assembled in the numeric order of their names (10 after 2), into a file
    /// larger than one PUT may carry; the answer names the file, and the upload folder is gone.
    @Test func theFinalMoveAssemblesTheChunksInNumericOrderAndRemovesTheFolder() async throws {
        try await NextcloudHarness.with(largestSinglePut: 1000) { nextcloud in
            let target = nextcloud.fileURL("assembled.bin").absoluteString
            let folder = nextcloud.uploadURL("transfer-1")
            #expect(try await nextcloud.send("MKCOL", folder, headers: [("Destination", target)]).status == 201)
            let parts = [
                ("10", Self.bytes(300, seed: 3)), ("2", Self.bytes(1000, seed: 2)), ("1", Self.bytes(1000, seed: 1)),
            ]
            for (name, content) in parts {
                let put = try await nextcloud.send(
                    "PUT", folder.appending(path: name), body: content,
                    headers: [("Destination", target), ("OC-Total-Length", "2300")])
                #expect(put.status == 201)
            }
            let moved = try await nextcloud.send(
                "MOVE", folder.appending(path: ".file"),
                headers: [("Destination", target), ("OC-Total-Length", "2300"), ("X-OC-Mtime", "1700000000")])
            #expect(moved.status == 201)
            #expect(moved.headers["OC-FileId"]?.hasSuffix("ocnextcloud1") == true)
            #expect(moved.headers["X-OC-MTime"] == "accepted")
            let etag = try #require(moved.headers["ETag"])
            #expect(moved.headers["OC-ETag"] == etag)

            let read = try await nextcloud.send("GET", nextcloud.fileURL("assembled.bin"))
            #expect(read.body == Self.bytes(1000, seed: 1) + Self.bytes(1000, seed: 2) + Self.bytes(300, seed: 3))
            #expect(read.headers["ETag"] == etag)
            let listing = try await nextcloud.send("PROPFIND", folder, headers: [("Depth", "1")])
            #expect(listing.status == 404)
        }
    }

    /// What a client resumes from: the chunks present and their sizes (and `.file`, which
    /// Nextcloud lists beside them).
    @Test func theUploadFolderListsTheChunksPresentWithTheirSizes() async throws {
        try await NextcloudHarness.with { nextcloud in
            let target = nextcloud.fileURL("resumed.bin").absoluteString
            let folder = nextcloud.uploadURL("transfer-2")
            #expect(try await nextcloud.send("MKCOL", folder, headers: [("Destination", target)]).status == 201)
            for (name, size) in [("1", 700), ("2", 500)] {
                let put = try await nextcloud.send(
                    "PUT", folder.appending(path: name), body: Self.bytes(size, seed: 9),
                    headers: [("Destination", target), ("OC-Total-Length", "1800")])
                #expect(put.status == 201)
            }
            let listing = try await nextcloud.propfind(
                folder, depth: "1", properties: [("DAV:", "getcontentlength"), ("DAV:", "resourcetype")])
            var sizes: [String: String] = [:]
            for response in listing.children("response", namespace: "DAV:") {
                guard let href = response.value("href"), !href.hasSuffix("/") else { continue }
                let name = String(href.split(separator: "/").last ?? "")
                sizes[name] =
                    response.children("propstat", namespace: "DAV:")
                    .compactMap { $0.child("prop", namespace: "DAV:")?.value("getcontentlength") }.first
            }
            #expect(sizes == ["1": "700", "2": "500", ".file": "1200"])

            // Resumed: the missing chunk goes up and the file is whole.
            let last = try await nextcloud.send(
                "PUT", folder.appending(path: "3"), body: Self.bytes(600, seed: 9),
                headers: [("Destination", target), ("OC-Total-Length", "1800")])
            #expect(last.status == 201)
            let moved = try await nextcloud.send(
                "MOVE", folder.appending(path: ".file"),
                headers: [("Destination", target), ("OC-Total-Length", "1800")])
            #expect(moved.status == 201)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("resumed.bin")).body.count == 1800)
        }
    }

    @Test func aTotalLengthThatIsNotTheSumOfTheChunksIsRefusedAndTheChunksStay() async throws {
        try await NextcloudHarness.with { nextcloud in
            let target = nextcloud.fileURL("short.bin").absoluteString
            let folder = nextcloud.uploadURL("transfer-3")
            #expect(try await nextcloud.send("MKCOL", folder, headers: [("Destination", target)]).status == 201)
            let put = try await nextcloud.send(
                "PUT", folder.appending(path: "1"), body: Self.bytes(100, seed: 1),
                headers: [("Destination", target), ("OC-Total-Length", "200")])
            #expect(put.status == 201)
            let moved = try await nextcloud.send(
                "MOVE", folder.appending(path: ".file"), headers: [("Destination", target), ("OC-Total-Length", "200")])
            #expect(moved.status == 400)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("short.bin")).status == 404)
            let listing = try await nextcloud.send("PROPFIND", folder, headers: [("Depth", "1")])
            #expect(listing.status == 207)
        }
    }

    /// The destination's preconditions: a stale `If-Match` or `If-None-Match: *` on an existing
    /// file is 412 and changes nothing; the current ETag replaces it (204) and keeps the old
    /// content as a version.
    @Test func theFinalMoveHonoursTheDestinationsPreconditionsAndKeepsVersions() async throws {
        try await NextcloudHarness.with { nextcloud in
            let first = try await nextcloud.send(
                "PUT", nextcloud.fileURL("doc.bin"), body: Data("first".utf8), headers: [("X-OC-Mtime", "1000")])
            #expect(first.status == 201)
            let currentETag = try #require(first.headers["ETag"])
            let target = nextcloud.fileURL("doc.bin").absoluteString

            func upload(_ id: String, _ condition: (String, String)) async throws -> Int {
                let folder = nextcloud.uploadURL(id)
                #expect(try await nextcloud.send("MKCOL", folder, headers: [("Destination", target)]).status == 201)
                let put = try await nextcloud.send(
                    "PUT", folder.appending(path: "1"), body: Data("second".utf8),
                    headers: [("Destination", target), ("OC-Total-Length", "6")])
                #expect(put.status == 201)
                return try await nextcloud.send(
                    "MOVE", folder.appending(path: ".file"),
                    headers: [("Destination", target), ("OC-Total-Length", "6"), ("X-OC-Mtime", "2000"), condition]
                ).status
            }
            #expect(try await upload("stale", ("If-Match", "\"not-the-etag\"")) == 412)
            #expect(try await upload("exists", ("If-None-Match", "*")) == 412)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("doc.bin")).body == Data("first".utf8))
            #expect(try await upload("current", ("If-Match", currentETag)) == 204)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("doc.bin")).body == Data("second".utf8))

            let idText = try #require(first.headers["OC-FileId"]?.prefix(8))
            let fileID = String(try #require(Int(idText)))
            let old = try await nextcloud.send("GET", nextcloud.versionURL("\(fileID)/1000"))
            #expect(old.status == 200)
            #expect(old.body == Data("first".utf8))
        }
    }

    /// The desktop client names the destination's ETag in a tagged `If` header on the final MOVE
    /// (`If: </remote.php/dav/files/USER/f> (["etag"])`), and sends the MKCOL without a
    /// `Destination` (chunking v1) and the MOVE's `Destination` as a path.
    @Test func theDesktopClientsTaggedIfHeaderGuardsTheFinalMove() async throws {
        try await NextcloudHarness.with { nextcloud in
            let first = try await nextcloud.send("PUT", nextcloud.fileURL("big.bin"), body: Data("old".utf8))
            let etag = try #require(first.headers["ETag"])
            let destination = "/remote.php/dav/files/\(NextcloudHarness.user)/big.bin"
            func upload(_ id: String, ifETag: String) async throws -> Int {
                let folder = nextcloud.uploadURL(id)
                #expect(try await nextcloud.send("MKCOL", folder, headers: [("OC-Total-Length", "3")]).status == 201)
                let chunk = try await nextcloud.send(
                    "PUT", folder.appending(path: "0000000000000000"), body: Data("new".utf8))
                #expect(chunk.status == 201)
                return try await nextcloud.send(
                    "MOVE", folder.appending(path: ".file"),
                    headers: [
                        ("Destination", destination), ("OC-Total-Length", "3"),
                        ("If", "<\(destination)> ([\(ifETag)])"),
                    ]
                ).status
            }
            #expect(try await upload("4001", ifETag: "\"0123456789abc\"") == 412)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("big.bin")).body == Data("old".utf8))
            #expect(try await upload("4002", ifETag: etag) == 204)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("big.bin")).body == Data("new".utf8))
        }
    }

    @Test func aChunkAboveTheLimitIsRefusedButTheFileAsAWholeIsNot() async throws {
        try await NextcloudHarness.with(largestSinglePut: 100) { nextcloud in
            let target = nextcloud.fileURL("chunked.bin").absoluteString
            let folder = nextcloud.uploadURL("transfer-4")
            #expect(try await nextcloud.send("MKCOL", folder, headers: [("Destination", target)]).status == 201)
            let tooLarge = try await nextcloud.send(
                "PUT", folder.appending(path: "1"), body: Self.bytes(101, seed: 1),
                headers: [("Destination", target), ("OC-Total-Length", "101")])
            #expect(tooLarge.status == 413)
            for name in ["1", "2", "3"] {
                let put = try await nextcloud.send(
                    "PUT", folder.appending(path: name), body: Self.bytes(100, seed: 1),
                    headers: [("Destination", target), ("OC-Total-Length", "300")])
                #expect(put.status == 201)
            }
            let moved = try await nextcloud.send(
                "MOVE", folder.appending(path: ".file"), headers: [("Destination", target), ("OC-Total-Length", "300")])
            #expect(moved.status == 201)
        }
    }

    @Test func version2ChunksAreNumberedFromOneTo10000AndCarryTheirDestination() async throws {
        try await NextcloudHarness.with { nextcloud in
            let target = nextcloud.fileURL("numbered.bin").absoluteString
            let folder = nextcloud.uploadURL("transfer-5")
            #expect(try await nextcloud.send("MKCOL", folder, headers: [("Destination", target)]).status == 201)
            for name in ["0", "10001", "first"] {
                let put = try await nextcloud.send(
                    "PUT", folder.appending(path: name), body: Data("x".utf8), headers: [("Destination", target)])
                #expect(put.status == 400, "chunk \(name)")
            }
            let withoutDestination = try await nextcloud.send("PUT", folder.appending(path: "1"), body: Data("x".utf8))
            #expect(withoutDestination.status == 400)
            let numbered = try await nextcloud.send(
                "PUT", folder.appending(path: "10000"), body: Data("x".utf8), headers: [("Destination", target)])
            #expect(numbered.status == 201)
        }
    }

    @Test func deletingTheUploadFolderAbortsTheUpload() async throws {
        try await NextcloudHarness.with { nextcloud in
            let target = nextcloud.fileURL("aborted.bin").absoluteString
            let folder = nextcloud.uploadURL("transfer-6")
            #expect(try await nextcloud.send("MKCOL", folder, headers: [("Destination", target)]).status == 201)
            let put = try await nextcloud.send(
                "PUT", folder.appending(path: "1"), body: Data("x".utf8), headers: [("Destination", target)])
            #expect(put.status == 201)
            #expect(try await nextcloud.send("DELETE", folder).status == 204)
            let moved = try await nextcloud.send(
                "MOVE", folder.appending(path: ".file"), headers: [("Destination", target)])
            #expect(moved.status == 404)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("aborted.bin")).status == 404)
        }
    }

    /// An upload folder unused for longer than the expiry age is gone (an age below zero makes
    /// every folder expired at once, so the test does not wait).
    @Test func anUploadFolderUnusedPastItsExpiryIsGone() async throws {
        try await NextcloudHarness.with(uploadExpiry: .seconds(-1)) { nextcloud in
            let folder = nextcloud.uploadURL("transfer-7")
            #expect(try await nextcloud.send("MKCOL", folder).status == 201)
            let put = try await nextcloud.send("PUT", folder.appending(path: "1"), body: Data("x".utf8))
            #expect(put.status == 404)
        }
    }

    /// Without a `Destination` on the MKCOL it is chunking v1 ("NG"): any chunk names, such
    /// as the zero-padded offsets of older desktop clients, assembled in their natural order.
    @Test func aVersion1UploadTakesAnyChunkNames() async throws {
        try await NextcloudHarness.with { nextcloud in
            let folder = nextcloud.uploadURL("1234567")
            #expect(try await nextcloud.send("MKCOL", folder).status == 201)
            for (name, text) in [("0000000000000003", "def"), ("0000000000000000", "abc")] {
                #expect(
                    try await nextcloud.send("PUT", folder.appending(path: name), body: Data(text.utf8)).status == 201)
            }
            let target = nextcloud.fileURL("v1.txt").absoluteString
            let moved = try await nextcloud.send(
                "MOVE", folder.appending(path: ".file"), headers: [("Destination", target), ("OC-Total-Length", "6")])
            #expect(moved.status == 201)
            #expect(try await nextcloud.send("GET", nextcloud.fileURL("v1.txt")).body == Data("abcdef".utf8))
        }
    }
}
