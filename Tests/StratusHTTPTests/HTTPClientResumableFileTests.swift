import Foundation
import Hummingbird
import NIOCore
import StratusDigest
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusHTTP

/// ``HTTPResponseDestination/resumableFile(_:)``: what arrived before a dropped connection stays,
/// the next attempt asks for the rest with `Range`, and lengths and digests cover the whole file.
@Suite struct HTTPClientResumableFileTests {
    private static let size = 600_000

    /// `/content` serves `size` deterministic bytes and honours `Range: bytes=N-` unless told to
    /// ignore it; `/cut` sends the first `cutAt` bytes of the first request's body and then
    /// closes the connection, and behaves like `/content` afterwards. Every `Range` header seen
    /// is recorded.
    private static func router(
        ranges: RangeLog, cutAt: Int = 250_000, startOverride: Int? = nil, ignoreRange: Bool = false
    ) -> Router<BasicRequestContext> {
        let router = Router()
        let served = Mutex(0)
        @Sendable func answer(_ request: Request, cut: Bool) -> Response {
            let range = request.headers[.range]
            ranges.values.withLock { $0.append(range) }
            if cut,
                served.withLock({ count in
                    count += 1
                    return count == 1
                })
            {
                return Response(
                    status: .ok,
                    body: ResponseBody(contentLength: size) { writer in
                        try await writer.write(ByteBuffer(data: TestServer.content(cutAt)))
                        throw CancellationError()
                    })
            }
            guard !ignoreRange, let range, range.hasPrefix("bytes="), let start = Int(range.dropFirst(6).dropLast())
            else {
                return Response(status: .ok, body: TestServer.streamedBody(size))
            }
            guard start < size else {
                return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
            }
            let claimed = startOverride ?? start
            return Response(
                status: .partialContent,
                headers: [.contentRange: "bytes \(claimed)-\(size - 1)/\(size)"],
                body: ResponseBody(byteBuffer: ByteBuffer(data: TestServer.content(size - start, offset: start)))
            )
        }
        router.get("/content") { request, _ in answer(request, cut: false) }
        router.get("/cut") { request, _ in answer(request, cut: true) }
        router.get("/missing") { _, _ in
            Response(status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "gone")))
        }
        return router
    }

    private static var whole: Data { TestServer.content(size) }

    @Test func aDroppedTransferKeepsItsBytesAndTheNextOneAsksForTheRest() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let file = folder.file("download.part")
        let ranges = RangeLog()
        try await TestServer.with(Self.router(ranges: ranges)) { base in
            let client = try StratusHTTPClient()
            let request = StratusHTTPRequest(url: base.appending(path: "cut"), responseDigests: [.sha256, .md5])
            await #expect(throws: StratusHTTPClientError.self) {
                _ = try await client.execute(request, into: .resumableFile(file))
            }
            let kept = try Data(contentsOf: file)
            #expect(kept.count > 0 && kept.count <= 250_000)
            #expect(kept == Self.whole.prefix(kept.count))

            let received = Mutex<Int64>(0)
            let response = try await client.execute(request, into: .resumableFile(file)) { progress in
                received.withLock { $0 = max($0, progress.bytesReceived) }
            }
            await client.shutdown()
            #expect(response.status == 206)
            #expect(response.file == file)
            #expect(try Data(contentsOf: file) == Self.whole)
            #expect(response.bodyLength == Int64(Self.size))
            #expect(response.bodyDigests[.sha256] == Hex.encode(Digest.sha256(Self.whole)))
            #expect(response.bodyDigests[.md5] == Hex.encode(Digest.md5(Self.whole)))
            #expect(received.withLock { $0 } == Int64(Self.size))
            #expect(ranges.values.withLock { $0 } == [nil, "bytes=\(kept.count)-"])
        }
    }

    @Test func aWholeAnswerReplacesWhatTheFileHeld() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let file = folder.file("download.part")
        try Data("stale start".utf8).write(to: file)
        let ranges = RangeLog()
        try await TestServer.with(Self.router(ranges: ranges, ignoreRange: true)) { base in
            let client = try StratusHTTPClient()
            let response = try await client.execute(
                StratusHTTPRequest(url: base.appending(path: "content"), responseDigests: [.sha256]),
                into: .resumableFile(file))
            await client.shutdown()
            #expect(response.status == 200)
            #expect(try Data(contentsOf: file) == Self.whole)
            #expect(response.bodyLength == Int64(Self.size))
            #expect(response.bodyDigests[.sha256] == Hex.encode(Digest.sha256(Self.whole)))
            #expect(ranges.values.withLock { $0 } == ["bytes=11-"])
        }
    }

    @Test func aFileHoldingAtLeastTheWholeContentIsFetchedAgainFromTheStart() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let file = folder.file("download.part")
        try (Self.whole + Data("extra".utf8)).write(to: file)
        let ranges = RangeLog()
        try await TestServer.with(Self.router(ranges: ranges)) { base in
            let client = try StratusHTTPClient()
            let response = try await client.execute(
                StratusHTTPRequest(url: base.appending(path: "content"), responseDigests: [.sha256]),
                into: .resumableFile(file))
            await client.shutdown()
            #expect(response.status == 200)
            #expect(try Data(contentsOf: file) == Self.whole)
            #expect(response.bodyDigests[.sha256] == Hex.encode(Digest.sha256(Self.whole)))
            #expect(ranges.values.withLock { $0 } == ["bytes=\(Self.size + 5)-", nil])
        }
    }

    /// Resumes a download of the first 1000 bytes from `path`, which must be refused as
    /// `invalidResponse` with the file left as it was.
    private static func expectRefusedResume(_ router: Router<BasicRequestContext>, path: String) async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let file = folder.file("download.part")
        let start = Self.whole.prefix(1000)
        try start.write(to: file)
        try await TestServer.with(router) { base in
            let client = try StratusHTTPClient()
            let error = await #expect(throws: StratusHTTPClientError.self) {
                // A progress handler, so the announced length is added up too.
                _ = try await client.execute(
                    StratusHTTPRequest(url: base.appending(path: path)), into: .resumableFile(file)
                ) { _ in }
            }
            await client.shutdown()
            #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            #expect(try Data(contentsOf: file) == start)
        }
    }

    @Test func aPartialAnswerStartingElsewhereIsRefusedAndTheFileKept() async throws {
        try await Self.expectRefusedResume(Self.router(ranges: RangeLog(), startOverride: 0), path: "content")
    }

    @Test func aPartialAnswerWithAnEnormousLengthIsRefusedWithoutTrapping() async throws {
        let router = Router()
        router.get("/huge") { _, _ in
            // The range is the rest of the content, the length close to Int64.max: added to the
            // 1000 bytes already held, it overflowed in the progress report.
            Response(
                status: .partialContent,
                headers: [
                    .contentRange: "bytes 1000-\(Self.size - 1)/\(Self.size)", .contentLength: "9223372036854775000",
                ],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(data: TestServer.content(1000, offset: 1000)))
                    throw CancellationError()
                }
            )
        }
        try await Self.expectRefusedResume(router, path: "huge")
    }

    @Test func contentRangeNumbersAreCheckedBeforeAnyArithmetic() {
        #expect(ResumableFileSink.contentRange("bytes 10-19/20")! == (10, 19, 20))
        #expect(ResumableFileSink.contentRange("bytes 10-19/*")! == (10, 19, nil))
        #expect(ResumableFileSink.contentRange("bytes 0-9223372036854775807/*") == nil)
        #expect(ResumableFileSink.contentRange("bytes 19-10/20") == nil)
        #expect(ResumableFileSink.contentRange("bytes 10-20/20") == nil)
        #expect(ResumableFileSink.contentRange("bytes -1-5/20") == nil)
        #expect(ResumableFileSink.contentRange("bytes 10-19") == nil)
    }

    @Test func anErrorAnswerLeavesTheFileAndCarriesItsBody() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let file = folder.file("download.part")
        let start = Self.whole.prefix(1000)
        try start.write(to: file)
        try await TestServer.with(Self.router(ranges: RangeLog())) { base in
            let client = try StratusHTTPClient()
            let response = try await client.execute(
                StratusHTTPRequest(url: base.appending(path: "missing")), into: .resumableFile(file))
            await client.shutdown()
            #expect(response.status == 404)
            #expect(response.file == nil)
            #expect(String(decoding: response.body, as: UTF8.self) == "gone")
            #expect(try Data(contentsOf: file) == start)
        }
    }
}

/// The `Range` headers a test server saw, in order.
private final class RangeLog: Sendable {
    let values = Mutex<[String?]>([])
}
