import Foundation
import MockSupport
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusDrive

/// Interrupted transfers, lost answers and corrupted content, made with the mock's fault rules.
@Suite struct MockFaultTests {
    private static let uploadPath = "/upload/drive/v3/files"

    private static func content(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    private static func downloaded(_ service: DriveService, _ path: RemotePath) async throws -> Data {
        let destination = FileManager.default.temporaryDirectory.appending(path: "drive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        _ = try await service.download(path, to: destination)
        return try Data(contentsOf: destination)
    }

    // Connection faults that strike before any answer byte (dropBeforeResponse,
    // dropAfterRequestBytes) are not used on chunks: libcurl itself sends a request again on a
    // fresh connection when a reused one dies before answering, so the adapter never sees them.

    @Test func aFailedChunkIsResumedFromWhatArrived() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(3 * 262_144 + 17)
            let size = bytes.count
            // The second chunk is refused with a 503 (Drive's advice: ask the session, resume).
            _ = fixture.faults.add(FaultRule(route: Self.uploadPath, method: "PUT", nth: 2, fault: .status(503)))
            let path = try RemotePath("resumed.bin")
            let file = try await service.upload(from: .bytes(bytes), to: path)
            #expect(file.contentHash?.value == Hex.encode(Digest.md5(bytes)))
            let puts = fixture.server.requestLog.entries { $0.method == "PUT" && $0.path.hasPrefix(Self.uploadPath) }
            // The log records the refused chunk too: the fault answers behind the log.
            #expect(
                puts.compactMap { $0.header("content-range") } == [
                    "bytes 0-262143/\(size)",
                    "bytes 262144-524287/\(size)",
                    "bytes */\(size)",
                    "bytes 262144-524287/\(size)",
                    "bytes 524288-786431/\(size)",
                    "bytes 786432-\(size - 1)/\(size)",
                ])
            #expect(puts.map(\.status) == [308, 503, 308, 308, 308, 200])
            #expect(try await Self.downloaded(service, path) == bytes)
        }
    }

    @Test func aLostAnswerToTheLastChunkIsAskedForNotResent() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(262_144 + 5)
            let size = bytes.count
            // The last chunk is stored and the file created, but the answer is cut off.
            _ = fixture.faults.add(
                FaultRule(route: Self.uploadPath, method: "PUT", nth: 2, fault: .dropAfterResponseBytes(10)))
            let path = try RemotePath("lost-answer.bin")
            let file = try await service.upload(from: .bytes(bytes), to: path)
            #expect(file.size == Int64(size))
            let puts = fixture.server.requestLog.entries { $0.method == "PUT" && $0.path.hasPrefix(Self.uploadPath) }
            #expect(
                puts.compactMap { $0.header("content-range") } == [
                    "bytes 0-262143/\(size)", "bytes 262144-\(size - 1)/\(size)", "bytes */\(size)",
                ])
            #expect(puts.last.map { [200, 201].contains($0.status) } == true)
            #expect(try await service.list(.root).map(\.path) == [path])
        }
    }

    @Test func aLostAnswerToACreateMakesNoDuplicate() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            _ = fixture.faults.add(FaultRule(route: Self.uploadPath, method: "POST", fault: .dropBeforeResponse))
            let path = try RemotePath("folder/once.txt")
            let file = try await service.upload(
                from: .bytes(Data("exactly once".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
            // The create went through once; the retry found it by name, size and MD5.
            #expect(fixture.server.requestLog.entries(path: Self.uploadPath).count == 1)
            let listed = try await service.list(.root)
            #expect(listed.map(\.id) == [file.id])
        }
    }

    @Test func serverErrorsAndRateLimitsAreRetried() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("retried.txt")
            _ = try await service.upload(from: .bytes(Data("x".utf8)), to: path)
            _ = fixture.faults.add(FaultRule(route: "/drive/v3/files", method: "GET", fault: .status(503)))
            _ = fixture.faults.add(FaultRule(route: "/drive/v3/files", method: "GET", nth: 2, fault: .status(403)))
            let file = try await service.metadata(of: path)
            #expect(file.size == 1)
            #expect(fixture.faults.injectedCount == 2)
        }
    }

    @Test func droppedDownloadContinuesWithRange() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("long.bin")
            let content = Self.content(300_000)
            let file = try await service.upload(from: .bytes(content), to: path)
            _ = fixture.faults.add(
                FaultRule(route: "/drive/v3/files/\(file.id)", method: "GET", fault: .dropAfterResponseBytes(100_000)))
            #expect(try await Self.downloaded(service, path) == content)

            // The second request asks only for what the first one did not deliver.
            let media = fixture.server.requestLog.entries(path: "/drive/v3/files/\(file.id)")
                .filter { $0.query.contains(NamedValue("alt", "media")) }
            let ranges = media.map { $0.header("Range") }
            #expect(media.count == 2)
            #expect(ranges.first == .some(nil))
            let resumedAt = try #require(
                ranges.last.flatMap { $0 }.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) })
            #expect((1...100_000).contains(resumedAt))
            #expect(media.last?.status == 206)
        }
    }

    @Test func corruptedDownloadIsRefusedAndTheDestinationKept() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let path = try RemotePath("fragile.bin")
            let file = try await service.upload(from: .bytes(Self.content(70_000)), to: path)
            _ = fixture.faults.add(
                FaultRule(route: "/drive/v3/files/\(file.id)", method: "GET", times: 0, fault: .corruptBody))
            let temporaryFolder = try TemporaryFolder(prefix: "drive")
            defer { temporaryFolder.remove() }
            let folder = temporaryFolder.url
            let destination = folder.appending(path: "save.bin")
            try Data("before".utf8).write(to: destination)
            // Passing would mean: a corrupted download was accepted.
            await expectServiceError(.integrityMismatch) {
                _ = try await service.download(path, to: destination)
            }
            #expect(try Data(contentsOf: destination) == Data("before".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["save.bin"])
        }
    }

    @Test func aSessionResumesAfterTheUploaderWasCancelled() async throws {
        try await MockFixture.withRunning { fixture in
            let service = try fixture.makeService()
            let bytes = Self.content(4 * 262_144 + 3)
            let content = try UploadContent(.bytes(bytes))
            let metadata = try DriveJSONBody.encode([
                "name": .string("resumed-later.bin"), "parents": .array([.string("appDataFolder")]),
            ])
            let url = service.transport.uploadURL("files", [("uploadType", "resumable"), ("fields", DriveFile.fields)])
            let first = DriveResumableUpload(
                transport: service.transport, content: content, chunkSize: 262_144,
                progress: MonotonicProgress(nil, total: nil))
            let session = try await first.initiate(method: .post, url: url, metadata: metadata, action: "files.create")

            // The first uploader is cancelled once the first chunk has gone out.
            let canceller = CancelAfter(bytes: 262_144)
            let cancelled = DriveResumableUpload(
                transport: service.transport, content: content, chunkSize: 262_144,
                progress: MonotonicProgress(canceller.handler, total: nil))
            let task = Task { try await cancelled.send(to: session, from: 0) }
            canceller.attach(task)
            let outcome = await task.result
            guard case .failure(let error as ServiceError) = outcome, error.code == .cancelled else {
                Issue.record("The cancelled uploader ended with \(outcome)")
                return
            }

            // A new uploader asks the session how much arrived and sends the rest.
            let status = try await first.status(of: session)
            guard case .incomplete(let received) = status else {
                Issue.record("The session reports \(status) after the cancellation")
                return
            }
            #expect(received >= 262_144 && received < Int64(bytes.count) && received % 262_144 == 0)
            let file = try await first.send(to: session, from: received)
            #expect(file.md5Checksum == Hex.encode(Digest.md5(bytes)))
            #expect(try await Self.downloaded(service, try RemotePath("resumed-later.bin")) == bytes)
        }
    }
}

/// Cancels a task once a progress report reaches a byte count (also when the report comes
/// before the task is attached).
final class CancelAfter: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var reached = false
        var done = false
    }

    private let threshold: Int64
    private let state = Mutex(State())

    init(bytes: Int64) { threshold = bytes }

    /// Attaches the task to cancel.
    func attach(_ task: Task<DriveFile, any Error>) {
        let now = state.withLock { state -> Bool in
            state.cancel = { task.cancel() }
            guard state.reached, !state.done else { return false }
            state.done = true
            return true
        }
        if now { task.cancel() }
    }

    /// The progress handler that watches for the threshold.
    var handler: ProgressHandler {
        { [self] progress in
            guard progress.completedBytes >= threshold else { return }
            let cancel = state.withLock { state -> (@Sendable () -> Void)? in
                state.reached = true
                guard let cancel = state.cancel, !state.done else { return nil }
                state.done = true
                return cancel
            }
            cancel?()
        }
    }
}
