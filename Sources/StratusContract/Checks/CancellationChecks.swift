import Foundation
import Stratus

extension ContractSuite {
    /// Transfers cancelled midway: a cancelled error (or a whole result), never a partial one.
    ///
    /// The transfer's task is cancelled from its own progress handler once some bytes have moved.
    /// A service that finishes anyway must then return the whole, correct result.
    static var cancellationChecks: [ContractCheck.Definition] {
        [cancelledUpload, cancelledDownload]
    }

    /// The size of content large enough to cancel midway.
    private static func cancellationSize(_ run: ContractRun) -> Int64 {
        let chunks = run.capabilities.chunkSize.multipliedReportingOverflow(by: 4)
        let size = max(run.options.cancellationContentSize, chunks.overflow ? .max : chunks.partialValue)
        return min(size, max(run.options.largestRoundTrip, 1))
    }

    private static let cancelledUpload = ContractCheck.Definition("cancellation: an upload cancelled midway leaves nothing partial") { run in
        let size = cancellationSize(run)
        let local = try run.makeContent("cancelled-upload", size: size)
        let expectedHash = try run.hash(of: local)
        let path = try run.path("cancel/upload.bin")
        let token = run.capabilities.changeFeed == .unavailable ? nil : try await run.latestChangeToken()

        let canceller = CancelOnProgress()
        let service = run.service
        let upload = Task {
            try await service.upload(from: .file(local), to: path, options: UploadOptions(progress: canceller.handler))
        }
        canceller.attach(upload)

        switch await upload.result {
        case .success(let file):
            // It finished before the cancellation took effect: it must be whole.
            try run.expectDescribes(file, size: size, hash: expectedHash, "upload that completed despite being cancelled")
            let (downloaded, _) = try await run.download(path)
            try run.expectSameContent(downloaded, local, "content of the upload that completed despite being cancelled")
        case .failure(let error as ServiceError) where error.code == .cancelled:
            try await run.expectError(.notFound, "metadata(of:) after a cancelled upload") {
                try await run.service.metadata(of: path)
            }
            let listed = try await run.service.list(.root)
            try expect(listed.isEmpty, "list() after a cancelled upload shows \(listed.map(\.path.string))")
            if let token {
                let (changes, _, _) = try await run.allChanges(since: token)
                try expect(!changes.contains { $0.path == path }, "the change feed reports the cancelled upload of \(path)")
            }
        case .failure(let error):
            throw failure("a cancelled upload should throw ServiceError(cancelled), but threw \(error)")
        }
    }

    private static let cancelledDownload = ContractCheck.Definition("cancellation: a download cancelled midway leaves the destination as it was") { run in
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

        let canceller = CancelOnProgress()
        let service = run.service
        let download = Task {
            try await service.download(path, version: nil, to: destination, options: DownloadOptions(progress: canceller.handler))
        }
        canceller.attach(download)

        switch await download.result {
        case .success(let file):
            try run.expectIntact(destination, file, "download that completed despite being cancelled")
            try run.expectSameContent(destination, local, "content of the download that completed despite being cancelled")
        case .failure(let error as ServiceError) where error.code == .cancelled:
            try expectEqual(try LocalFiles.contents(of: destination), earlier, "the destination's content after a cancelled download")
        case .failure(let error):
            throw failure("a cancelled download should throw ServiceError(cancelled), but threw \(error)")
        }
        try expectEqual(try LocalFiles.names(in: folder), ["save.bin"], "files in the destination's folder after the download (no temporary file may remain)")
    }
}
