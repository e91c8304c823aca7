import Foundation
import MockNextcloud
import MockSupport
import Stratus
import StratusAdapterKit
import StratusDigest
import Synchronization
import Testing

@testable import StratusWebDAV

/// Nextcloud's chunked upload (v2) against the mock, with small chunks: the requests, versions
/// kept, a chunk sent again after a dropped connection, an upload resumed from the chunks the
/// server kept, preconditions on the assembling MOVE, cleanup after cancellation, and the
/// fallback after a PUT refused as too large.
@Suite struct ChunkedUploadTests {
    static let chunk: Int64 = 64 * 1024
    static let chunking = NextcloudMockServer.Chunking(threshold: 2 * chunk, chunkSize: chunk)

    private func content(_ size: Int, seed: UInt8) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    private func sha256(_ data: Data) -> String { Hex.encode(Digest.sha256(data)) }

    /// The requests of the log after `from` whose path or `Destination` is below the folder, and
    /// those to the upload folders such requests named (DELETE and PROPFIND carry no
    /// `Destination`).
    private func requests(_ log: RequestLog, from: Int, folder: String) -> [RecordedRequest] {
        let entries = log.entries
        let mine = entries.filter { $0.header("Destination")?.contains("/\(folder)/") ?? false }
        let transfers = Set(
            mine.compactMap { entry -> String? in
                let parts = entry.path.split(separator: "/")
                guard let index = parts.firstIndex(of: "uploads"), parts.count > index + 2 else { return nil }
                return String(parts[index + 2])
            })
        return entries.dropFirst(from).filter { entry in
            entry.path.contains("/\(folder)/") || (entry.header("Destination")?.contains("/\(folder)/") ?? false)
                || transfers.contains { entry.path.contains("/uploads/\(NextcloudMockServer.user)/\($0)") }
        }
    }

    private func download(_ service: WebDAVService, _ path: RemotePath, version: VersionID? = nil) async throws -> Data
    {
        let destination = FileManager.default.temporaryDirectory.appending(path: "stratus-chunked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        _ = try await service.download(path, version: version, to: destination)
        return try Data(contentsOf: destination)
    }

    @Test func aLargeFileGoesInChunksAndIsCommittedByOneMove() async throws {
        let folder = "chunked-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let log = try await NextcloudMockServer.running().log
        let data = content(300_000, seed: 1)
        let local = FileManager.default.temporaryDirectory.appending(path: "stratus-chunked-\(UUID().uuidString)")
        try data.write(to: local)
        defer { try? FileManager.default.removeItem(at: local) }
        let reports = Mutex<[Int64]>([])
        let before = log.count
        let path = try RemotePath("big/file.bin")
        let file = try await service.upload(
            from: .file(local), to: path,
            options: UploadOptions(progress: { progress in reports.withLock { $0.append(progress.completedBytes) } }))
        #expect(file.size == 300_000)
        #expect(file.contentHash == ContentHash(algorithm: .sha256, value: sha256(data)))
        #expect(try await download(service, path) == data)

        let sent = requests(log, from: before, folder: folder)
        #expect(!sent.contains { $0.method == "PUT" && $0.path.hasSuffix("/big/file.bin") }, "a PUT of the whole file")
        let chunks = sent.filter { $0.method == "PUT" && $0.path.contains("/remote.php/dav/uploads/") }
        #expect(
            chunks.map { $0.path.split(separator: "/").last.map(String.init) } == [
                "00001", "00002", "00003", "00004", "00005",
            ])
        #expect(chunks.allSatisfy { $0.header("OC-Total-Length") == "300000" })
        let moves = sent.filter { $0.method == "MOVE" }
        #expect(moves.count == 1)
        let move = try #require(moves.first)
        #expect(move.path.hasSuffix("/.file"))
        #expect(move.header("OC-Total-Length") == "300000")
        #expect(move.header("OC-Checksum") == "SHA256:" + sha256(data))
        #expect(move.header("X-OC-Mtime") != nil)
        #expect(move.header("Destination")?.hasSuffix("/\(folder)/big/file.bin") == true)
        #expect(move.status == 201)

        let seen = reports.withLock { $0 }
        #expect(seen == seen.sorted() && seen.last == 300_000, "progress: \(seen)")
        #expect(seen.count > 2)
    }

    @Test func contentThatChangesDuringTheUploadIsRefused() async throws {
        let folder = "chunked-changed-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let local = FileManager.default.temporaryDirectory.appending(path: "stratus-chunked-\(UUID().uuidString)")
        try content(300_000, seed: 14).write(to: local)
        defer { try? FileManager.default.removeItem(at: local) }
        let changed = Mutex(false)
        let replacement = content(300_000, seed: 15)
        let path = try RemotePath("h.bin")
        let error = await #expect(throws: ServiceError.self) {
            _ = try await service.upload(
                from: .file(local), to: path,
                options: UploadOptions(progress: { progress in
                    guard progress.completedBytes >= Self.chunk else { return }
                    let isFirst = changed.withLock { done in
                        defer { done = true }
                        return !done
                    }
                    if isFirst { try? replacement.write(to: local) }
                }))
        }
        #expect(error?.code == .localFile)
        await #expect(throws: ServiceError.self) { _ = try await service.metadata(of: path) }
    }

    /// The contract run's settings: an upload just above the cutoff, which is the server's limit,
    /// goes in chunks and never meets the limit.
    @Test func anUploadAboveTheCutoffNeverMeetsTheServersLimit() async throws {
        let folder = "chunked-cutoff-\(UUID().uuidString.prefix(8))"
        let limit = NextcloudMockServer.limitedPutSize
        let service = try await NextcloudMockServer.makeService(
            folder: folder,
            chunking: NextcloudMockServer.Chunking(threshold: limit, chunkSize: limit / 2, limitedServer: true))
        #expect(service.capabilities.largestSingleUpload == limit)
        let log = try await NextcloudMockServer.running(limited: true).log
        let before = log.count
        for size in [limit, limit + 1] {
            let data = content(Int(size), seed: 16)
            let path = try RemotePath("size-\(size).bin")
            _ = try await service.upload(from: .bytes(data), to: path)
            #expect(try await download(service, path) == data)
        }
        let sent = requests(log, from: before, folder: folder)
        #expect(!sent.contains { $0.status == 413 })
        #expect(sent.contains { $0.method == "PUT" && $0.path.hasSuffix("/size-\(limit).bin") && $0.status < 300 })
        #expect(!sent.contains { $0.method == "PUT" && $0.path.hasSuffix("/size-\(limit + 1).bin") })
        #expect(sent.filter { $0.method == "PUT" && $0.path.contains("/uploads/") }.count == 3)
    }

    @Test func aChunkedUploadKeepsTheEarlierVersions() async throws {
        let folder = "chunked-versions-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let path = try RemotePath("notes.bin")
        let first = content(1000, seed: 2)
        let second = content(200_000, seed: 3)
        let v1 = try await service.upload(from: .bytes(first), to: path)
        let v2 = try await service.upload(
            from: .bytes(second), to: path, options: UploadOptions(precondition: .mustMatch(v1.version)))
        #expect(v2.version != v1.version)
        let versions = try await service.versions(of: path)
        #expect(versions.map(\.id) == [v2.version, v1.version])
        #expect(versions.last?.contentHash == ContentHash(algorithm: .sha256, value: sha256(first)))
        #expect(try await download(service, path, version: v1.version) == first)
        _ = try await service.restore(path, to: v1.version)
        #expect(try await download(service, path) == first)
        #expect(try await service.versions(of: path).count == 3)
    }

    @Test func aDroppedChunkIsSentAgainAlone() async throws {
        let folder = "chunked-drop-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let running = try await NextcloudMockServer.running()
        let rule = running.server.faults.add(
            FaultRule(
                route: "/remote.php/dav/uploads/*/00003", method: "PUT",
                headers: ["Destination": "*/\(folder)/a.bin"], fault: .dropAfterRequestBytes(10_000)))
        defer { _ = running.server.faults.remove(id: rule) }
        let before = running.log.count
        let data = content(300_000, seed: 4)
        _ = try await service.upload(from: .bytes(data), to: try RemotePath("a.bin"))
        #expect(try await download(service, try RemotePath("a.bin")) == data)
        let names = requests(running.log, from: before, folder: folder)
            .filter { $0.method == "PUT" && $0.path.contains("/uploads/") && $0.status < 300 }
            .compactMap { $0.path.split(separator: "/").last.map(String.init) }
        #expect(names == ["00001", "00002", "00003", "00003", "00004", "00005"], "chunk 3 twice, the others once")
    }

    @Test func anUploadThatFailedResumesFromTheChunksTheServerKept() async throws {
        let folder = "chunked-resume-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let running = try await NextcloudMockServer.running()
        let log = running.log
        // More failures than the retry policy's 3 attempts: the first upload gives up.
        let rule = running.server.faults.add(
            FaultRule(
                route: "/remote.php/dav/uploads/*/00003", method: "PUT",
                headers: ["Destination": "*/\(folder)/a.bin"], times: 3, fault: .status(500)))
        defer { _ = running.server.faults.remove(id: rule) }
        let data = content(300_000, seed: 5)
        let path = try RemotePath("a.bin")
        let error = await #expect(throws: ServiceError.self) {
            _ = try await service.upload(from: .bytes(data), to: path)
        }
        #expect(error?.code == .server)
        await #expect(throws: ServiceError.self) { _ = try await service.metadata(of: path) }

        let before = log.count
        let file = try await service.upload(from: .bytes(data), to: path)
        #expect(file.size == 300_000)
        #expect(try await download(service, path) == data)
        let again = requests(log, from: before, folder: folder)
        let chunks = again.filter { $0.method == "PUT" && $0.path.contains("/uploads/") }
            .compactMap { $0.path.split(separator: "/").last.map(String.init) }
        #expect(chunks == ["00003", "00004", "00005"], "only the chunks the server did not keep")
        #expect(!again.contains { $0.method == "MKCOL" && $0.path.contains("/uploads/") })
        #expect(again.contains { $0.method == "PROPFIND" && $0.path.contains("/uploads/") })
    }

    @Test func theAssemblingMoveCarriesThePreconditions() async throws {
        let folder = "chunked-conditions-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let log = try await NextcloudMockServer.running().log
        let path = try RemotePath("c.bin")
        var before = log.count
        let created = try await service.upload(
            from: .bytes(content(200_000, seed: 6)), to: path, options: UploadOptions(precondition: .mustNotExist))
        var move = try #require(requests(log, from: before, folder: folder).first { $0.method == "MOVE" })
        #expect(move.header("If-None-Match") == "*")
        let etag = try #require(try await service.entry(path)?.etag)

        before = log.count
        _ = try await service.upload(
            from: .bytes(content(200_000, seed: 7)), to: path,
            options: UploadOptions(precondition: .mustMatch(created.version)))
        move = try #require(requests(log, from: before, folder: folder).first { $0.method == "MOVE" })
        #expect(move.header("If-Match") == "\"\(etag)\"")
    }

    @Test func aPreconditionRefusedByTheMoveIsAConflictAndTheChunksGo() async throws {
        let folder = "chunked-refused-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let log = try await NextcloudMockServer.running().log
        let path = try RemotePath("d.bin")
        let original = content(1000, seed: 8)
        _ = try await service.upload(from: .bytes(original), to: path)
        let stale = try #require(try await service.entry(path))
        // Another writer changes the file between the check and the MOVE: here the check was
        // made on an entry that is stale by the time of the MOVE.
        _ = try await service.upload(from: .bytes(content(2000, seed: 9)), to: path)
        let newer = try await download(service, path)
        let big = try UploadContent(.bytes(content(200_000, seed: 10)))
        for (current, precondition) in [
            (stale, WritePrecondition.mustMatch(service.version(of: stale))), (nil, .mustNotExist),
        ] {
            let before = log.count
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.writeChunked(
                    big, to: path, current: current, precondition: precondition, modified: 1_900_000_000,
                    progress: MonotonicProgress(nil, total: big.size))
            }
            #expect(error?.code == .conflict)
            let sent = requests(log, from: before, folder: folder)
            #expect(sent.contains { $0.method == "MOVE" && $0.status == 412 })
            let uploadFolder = try #require(sent.first { $0.method == "MKCOL" }?.path)
            let left = try await service.transport.propfind(
                try #require(URL(string: uploadFolder, relativeTo: service.configuration.url)), depth: 0, action: "test"
            )
            #expect(left == nil, "the upload folder is gone")
        }
        #expect(try await download(service, path) == newer)
    }

    @Test func aCancelledChunkedUploadDeletesItsFolder() async throws {
        let folder = "chunked-cancel-\(UUID().uuidString.prefix(8))"
        let service = try await NextcloudMockServer.makeService(folder: folder, chunking: Self.chunking)
        let log = try await NextcloudMockServer.running().log
        let path = try RemotePath("e.bin")
        let data = content(Int(Self.chunk) * 16, seed: 11)
        let before = log.count
        let (start, go) = AsyncStream<Void>.makeStream()
        let holder = Mutex<Task<RemoteFile, any Error>?>(nil)
        let threshold = Self.chunk * 3
        let task = Task<RemoteFile, any Error> {
            for await _ in start { break }
            return try await service.upload(
                from: .bytes(data), to: path,
                options: UploadOptions(progress: { progress in
                    if progress.completedBytes >= threshold { holder.withLock { $0?.cancel() } }
                }))
        }
        holder.withLock { $0 = task }
        go.yield()
        go.finish()
        await #expect(throws: (any Error).self) { _ = try await task.value }
        let sent = requests(log, from: before, folder: folder)
        let uploadFolder = try #require(sent.first { $0.method == "MKCOL" && $0.path.contains("/uploads/") }?.path)
        #expect(sent.contains { $0.method == "DELETE" && $0.path == uploadFolder })
        #expect(!sent.contains { $0.method == "MOVE" })
        let left = try await service.transport.propfind(
            try #require(URL(string: uploadFolder, relativeTo: service.configuration.url)), depth: 0, action: "test")
        #expect(left == nil, "the upload folder is gone")
        await #expect(throws: ServiceError.self) { _ = try await service.metadata(of: path) }
    }

    @Test func aPutRefusedAsTooLargeIsSentInChunks() async throws {
        let folder = "chunked-413-\(UUID().uuidString.prefix(8))"
        let limit = NextcloudMockServer.limitedPutSize
        // The cutoff above the server's limit: the PUT is refused, and the chunks go around it.
        let service = try await NextcloudMockServer.makeService(
            folder: folder,
            chunking: NextcloudMockServer.Chunking(threshold: 4 * limit, chunkSize: limit / 2, limitedServer: true))
        let log = try await NextcloudMockServer.running(limited: true).log
        let data = content(Int(limit) + 100_000, seed: 12)
        let path = try RemotePath("f.bin")
        let before = log.count
        let file = try await service.upload(from: .bytes(data), to: path)
        #expect(file.size == Int64(data.count))
        #expect(try await download(service, path) == data)
        let sent = requests(log, from: before, folder: folder)
        #expect(sent.contains { $0.method == "PUT" && $0.path.hasSuffix("/\(folder)/f.bin") && $0.status == 413 })
        #expect(sent.filter { $0.method == "PUT" && $0.path.contains("/uploads/") }.count == 3)
        #expect(sent.contains { $0.method == "MOVE" && $0.status == 201 })

        // Chunks above the limit too: a clear error naming the option.
        let tooLarge = try await NextcloudMockServer.makeService(
            folder: folder,
            chunking: NextcloudMockServer.Chunking(threshold: limit / 2, chunkSize: 2 * limit, limitedServer: true))
        let error = await #expect(throws: ServiceError.self) {
            _ = try await tooLarge.upload(from: .bytes(content(Int(limit) + 1, seed: 13)), to: try RemotePath("g.bin"))
        }
        #expect(error?.code == .payloadTooLarge)
        #expect(error?.message.contains("chunk_size") == true)
    }
}
