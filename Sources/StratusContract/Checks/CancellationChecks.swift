import Foundation
import Stratus

extension ContractSuite {
    /// Transfers cancelled midway: a cancelled error, never a partial result.
    ///
    /// The transfer's task is cancelled from its own progress handler at the first report that
    /// shows some bytes moved and some still to move. Each check then proves three things:
    ///
    /// - the cancellation landed mid-transfer (a transfer that never reported a point strictly
    ///   between 0 and its size fails as inconclusive);
    /// - the transfer stopped with ``ServiceError/Code/cancelled`` and left nothing partial (the
    ///   remote file absent or unchanged, the local destination as it was);
    /// - the same transfer, not cancelled, succeeds, so the cancelled request would not have
    ///   failed anyway.
    static var cancellationChecks: [ContractCheck.Definition] {
        [cancelledUpload, cancelledDownload]
    }

    /// How many times the download check tries to cancel midway before calling it inconclusive.
    private static let downloadAttempts = 5

    /// The size of content large enough to cancel midway: at least 4 chunks, within the
    /// round-trip limit and what the service accepts in one upload.
    private static func cancellationSize(_ run: ContractRun) -> Int64 {
        let chunks = run.capabilities.chunkSize.multipliedReportingOverflow(by: 4)
        let fourChunks = chunks.overflow || !run.capabilities.supportsChunkedUpload ? 0 : chunks.partialValue
        let size = max(run.options.cancellationContentSize, fourChunks)
        return min(size, max(run.options.largestRoundTrip, 1), run.largestUpload)
    }

    private static let cancelledUpload = ContractCheck.Definition(
        "cancellation: an upload cancelled midway leaves nothing partial"
    ) { run in
        let size = cancellationSize(run)
        let local = try run.makeContent("cancelled-upload", size: size)
        let replacement = try run.makeContent("cancelled-replacement", size: size)
        let path = try run.path("cancel/upload.bin")
        let token = run.capabilities.changeFeed == .unavailable ? nil : try await run.latestChangeToken()

        // A new file, cancelled: nothing may appear.
        try await cancelUpload(of: local, to: path, size: size, "an upload of a new file", run)
        try await run.expectError(.notFound, "metadata(of:) after a cancelled upload") {
            try await run.service.metadata(of: path)
        }
        let listed = try await run.service.list(.root)
        try expect(listed.isEmpty, "list() after a cancelled upload shows \(listed.map(\.path.string))")
        if let token {
            let (changes, _, _) = try await run.allChanges(since: token)
            try expect(!changes.contains { $0.path == path }, "the change feed reports the cancelled upload of \(path)")
        }

        // The same upload, not cancelled, must succeed: the cancelled one was cut short, not
        // doomed anyway.
        let whole = try await run.upload(.file(local), to: path)
        try run.expectDescribes(
            whole, size: size, hash: try run.hash(of: local),
            "the same upload, not cancelled (it must succeed for the cancellation to prove anything)")

        // An overwrite, cancelled: the file must stay as it was.
        try await cancelUpload(of: replacement, to: path, size: size, "an upload over an existing file", run)
        let after = try await run.service.metadata(of: path)
        try run.expectDescribes(
            after, size: size, hash: whole.contentHash?.value ?? "",
            "metadata(of: \(path)) after a cancelled overwrite (the file must be unchanged)")
        try expectEqual(after.version, whole.version, "version of \(path) after a cancelled overwrite")
        let (downloaded, _) = try await run.download(path)
        try run.expectSameContent(downloaded, local, "content of \(path) after a cancelled overwrite")
    }

    /// Uploads with a canceller and expects the cancellation, midway.
    private static func cancelUpload(
        of local: URL, to path: RemotePath, size: Int64, _ what: String, _ run: ContractRun
    ) async throws {
        let canceller = CancelOnProgress(size: size)
        let service = run.service
        let upload = Task {
            try await service.upload(from: .file(local), to: path, options: UploadOptions(progress: canceller.handler))
        }
        canceller.attach(upload)
        try expectCancelled(await upload.result, canceller, size: size, "\(what) to \(path)")
    }

    /// Fails unless a transfer was cancelled midway and stopped with a cancelled error.
    private static func expectCancelled<Success>(
        _ result: Result<Success, any Error>, _ canceller: CancelOnProgress, size: Int64, _ what: String
    ) throws {
        switch result {
        case .success:
            let cancelledAt = try canceller.expectCancelledMidway(what)
            throw failure(
                "\(what) completed although its task was cancelled at \(cancelledAt) of \(size) bytes; a transfer cancelled midway must stop and throw ServiceError(cancelled)"
            )
        case .failure(let error as ServiceError) where error.code == .cancelled:
            _ = try canceller.expectCancelledMidway(what)
        case .failure(let error):
            let when =
                canceller.cancelledAt.map { "cancelled at \($0) of \(size) bytes" } ?? "before the check cancelled it"
            throw failure("\(what) should throw ServiceError(cancelled), but threw \(error) (\(when))")
        }
    }

    private static let cancelledDownload = ContractCheck.Definition(
        "cancellation: a download cancelled midway leaves the destination as it was"
    ) { run in
        let size = cancellationSize(run)
        let local = try run.makeContent("cancelled-download", size: size)
        let path = try run.path("cancel/download.bin")
        _ = try await run.upload(.file(local), to: path)

        let folder = try run.makeLocalFolder("cancelled-download")
        let destination = folder.appending(path: "save.bin")
        let earlier = Data("what the destination held before".utf8)
        do {
            try earlier.write(to: destination)
        } catch {
            throw failure("could not write the local file \(destination.path): \(error)")
        }

        // A download from a fast server can arrive whole between two progress calls of the
        // HTTP library; a download that completed without a report midway is tried again (the
        // destination is put back), up to `downloadAttempts` times, before the check calls it
        // inconclusive.
        let service = run.service
        for attempt in 1...downloadAttempts {
            let canceller = CancelOnProgress(size: size)
            let download = Task {
                try await service.download(
                    path, version: nil, to: destination, options: DownloadOptions(progress: canceller.handler))
            }
            canceller.attach(download)
            let result = await download.result
            if case .success = result, canceller.cancelledAt == nil, attempt < downloadAttempts {
                do {
                    try earlier.write(to: destination)
                } catch {
                    throw failure("could not write the local file \(destination.path) again: \(error)")
                }
                continue
            }
            try expectCancelled(
                result, canceller, size: size, "the download of \(path) (attempt \(attempt) of \(downloadAttempts))")
            break
        }
        try expectEqual(
            try LocalFiles.contents(of: destination), earlier, "the destination's content after a cancelled download")
        try expectEqual(
            try LocalFiles.names(in: folder), ["save.bin"],
            "files in the destination's folder after the cancelled download (no temporary file may remain)")

        // The same download, not cancelled, must succeed.
        let file: RemoteFile
        do {
            file = try await run.service.download(path, version: nil, to: destination, options: DownloadOptions())
        } catch {
            throw failure(
                "the same download, not cancelled, threw \(error); it must succeed for the cancellation to prove anything"
            )
        }
        try run.expectIntact(destination, file, "the same download, not cancelled")
        try run.expectSameContent(destination, local, "content of the same download, not cancelled")
        try expectEqual(
            try LocalFiles.names(in: folder), ["save.bin"], "files in the destination's folder after the download")
    }
}
