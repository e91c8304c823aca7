import Foundation
import MockSupport
import Stratus
import StratusDigest

/// One cell's run: set up the state the operation needs, measure the operation's requests to
/// its route without the fault, inject the fault, run the operation again, and check the end
/// state.
struct CellRun {
    let cell: MatrixCell
    let harness: MatrixHarness

    private var service: any Service { harness.service }
    private var route: (path: String, method: String) { harness.route(cell.operation) }

    /// Runs the cell; returns the retries the fault cost, or throws ``MatrixFailure``.
    func run() async throws -> Int {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stratus-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let algorithm = service.capabilities.hashAlgorithm
        let path = try RemotePath("cell/file.bin")

        switch cell.operation {
        case .smallUpload, .batchCommit, .chunkedUpload:
            let size = cell.operation == .chunkedUpload ? harness.chunkedSize : harness.smallSize
            let local = try Self.content(size: size, seed: 1, in: folder, name: "content.bin")
            let hash = try Self.hash(local, algorithm)
            let clean = try await requests {
                _ = try await service.upload(
                    from: .file(local), to: try RemotePath("clean/file.bin"), options: UploadOptions())
            }
            // A batch commit's body is a small JSON document, not the file's bytes.
            let body = cell.operation == .batchCommit ? 64 : size
            let faulted = try await faultedRequests(sendsBody: true, bodySize: body) {
                let file = try await service.upload(from: .file(local), to: path, options: UploadOptions())
                try expect(
                    file.contentHash?.value == hash,
                    "the upload reports hash \(file.contentHash?.value ?? "none"), not \(hash)")
            }
            try expect(
                try await service.metadata(of: path).contentHash?.value == hash,
                "the remote file does not have the content's hash")
            let listed = try await service.list(try RemotePath("cell")).map(\.path)
            try expect(listed == [path], "the folder holds \(listed), not just \(path)")
            let versions = try await service.versions(of: path)
            try expect(versions.count == 1, "the file has \(versions.count) versions; a retry wrote it twice")
            return faulted - clean

        case .download:
            let local = try Self.content(size: 2 * 1_048_576 + 123, seed: 2, in: folder, name: "source.bin")
            let hash = try Self.hash(local, algorithm)
            _ = try await service.upload(from: .file(local), to: path, options: UploadOptions())
            let downloads = folder.appending(path: "downloads")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            let destination = downloads.appending(path: "file.bin")
            let clean = try await requests {
                _ = try await service.download(path, version: nil, to: destination, options: DownloadOptions())
            }
            try FileManager.default.removeItem(at: destination)
            let faulted = try await faultedRequests(sendsBody: false, bodySize: 2 * 1_048_576) {
                _ = try await service.download(path, version: nil, to: destination, options: DownloadOptions())
            }
            try expect(
                try Self.hash(destination, algorithm) == hash, "the downloaded file does not have the content's hash")
            let left = try FileManager.default.contentsOfDirectory(atPath: downloads.path)
            try expect(left == ["file.bin"], "the download folder holds \(left)")
            if cell.fault == .droppedMidBody {
                // Resume, don't restart: the retry asks only for the bytes that did not arrive.
                let counter = routeCounter
                let ranges = harness.requestLog.entries(where: { counter.matches(method: $0.method, path: $0.path) })
                    .compactMap { $0.header("Range") }
                try expect(
                    ranges.contains { $0.hasPrefix("bytes=") && $0 != "bytes=0-" },
                    "the retry did not continue with Range (ranges sent: \(ranges))")
            }
            return faulted - clean

        case .changeFeed:
            let token = try await service.latestChangeToken()
            _ = try await service.upload(from: .bytes(Data("changed".utf8)), to: path, options: UploadOptions())
            let clean = try await requests { _ = try await service.changes(since: token) }
            var seen: [Change] = []
            let faulted = try await faultedRequests(sendsBody: false, bodySize: 64) {
                var page = try await service.changes(since: token)
                seen = page.changes
                while page.hasMore {
                    page = try await service.changes(since: page.nextToken)
                    seen += page.changes
                }
            }
            try expect(seen.contains { $0.path == path }, "the change to \(path) is not reported: \(seen)")
            return faulted - clean

        case .versions:
            let first = try await service.upload(from: .bytes(Data("first".utf8)), to: path, options: UploadOptions())
            let second = try await service.upload(from: .bytes(Data("second".utf8)), to: path, options: UploadOptions())
            let clean = try await requests { _ = try await service.versions(of: path) }
            var versions: [FileVersion] = []
            let faulted = try await faultedRequests(sendsBody: false, bodySize: 64) {
                versions = try await service.versions(of: path)
            }
            try expect(versions.map(\.id) == [second.version, first.version], "versions are \(versions.map(\.id))")
            for (version, upload) in zip(versions, [second, first]) {
                try expect(version.size == upload.size, "version \(version.id) has size \(version.size)")
                try expect(
                    version.contentHash == upload.contentHash
                        || (version.contentHash == nil && !harness.everyVersionHasHash),
                    "version hashes do not match the uploads")
            }
            return faulted - clean

        case .restore:
            let first = try await service.upload(from: .bytes(Data("first".utf8)), to: path, options: UploadOptions())
            _ = try await service.upload(from: .bytes(Data("second".utf8)), to: path, options: UploadOptions())
            let faulted = try await faultedRequests(sendsBody: false, bodySize: 64) {
                let restored = try await service.restore(path, to: first.version)
                try expect(restored.contentHash == first.contentHash, "the restore reports other content")
            }
            try expect(
                try await service.metadata(of: path).contentHash == first.contentHash,
                "the file does not hold the old content")
            let count = try await service.versions(of: path).count
            try expect(count == 3, "the file has \(count) versions, not 3: a restore was repeated or lost")
            return faulted - 1

        case .delete:
            _ = try await service.upload(from: .bytes(Data("doomed".utf8)), to: path, options: UploadOptions())
            let faulted = try await faultedRequests(sendsBody: false, bodySize: 64) {
                try await service.delete(path, precondition: .none)
            }
            if try await service.metadataIfPresent(of: path) != nil {
                throw MatrixFailure("the file is still there after the delete")
            }
            if harness.keepsVersionsOfDeletedFiles {
                let versions = try await service.versions(of: path)
                try expect(!versions.isEmpty, "the deleted file's versions are gone")
            }
            return faulted - 1
        }
    }

    /// A rule that matches the cell's route and injects nothing.
    private var routeCounter: FaultRule {
        FaultRule(route: route.path, method: route.method, times: 1, probability: 0, fault: .delay(milliseconds: 0))
    }

    /// The requests an operation sends to the cell's route, counted by a rule that injects
    /// nothing.
    private func requests(_ operation: () async throws -> Void) async throws -> Int {
        let id = harness.faults.add(routeCounter)
        defer { harness.faults.remove(id: id) }
        try await operation()
        return harness.faults.rules.first { $0.id == id }?.matched ?? 0
    }

    /// The requests an operation sends to the cell's route with the fault injected once
    /// (counted by the fault rule as they arrive, so an answer held back still counts); the
    /// fault must have been injected.
    private func faultedRequests(sendsBody: Bool, bodySize: Int, _ operation: () async throws -> Void) async throws
        -> Int
    {
        let id = harness.faults.add(cell.fault.rule(route: route, sendsBody: sendsBody, bodySize: bodySize))
        try await operation()
        let rule = harness.faults.rules.first { $0.id == id }
        try expect(rule?.injected == 1, "the fault was injected \(rule?.injected ?? 0) times, not once")
        if ProcessInfo.processInfo.environment["STRATUS_MATRIX_TRACE"] != nil {
            print("\(cell): \(harness.requestLog.entries.map { "\($0.method) \($0.path) -> \($0.status)" })")
        }
        return rule?.matched ?? 0
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        guard condition else { throw MatrixFailure(message()) }
    }

    /// A file's digest in hex.
    static func hash(_ file: URL, _ algorithm: HashAlgorithm) throws -> String {
        try Digest.hash(fileAt: file, algorithms: [algorithm])[algorithm] ?? ""
    }

    /// A local file of pseudo-random bytes.
    static func content(size: Int, seed: UInt64, in folder: URL, name: String) throws -> URL {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        let url = folder.appending(path: name)
        try Data(bytes).write(to: url)
        return url
    }
}

/// Why a cell failed.
struct MatrixFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
