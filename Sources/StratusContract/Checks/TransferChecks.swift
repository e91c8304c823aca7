import Foundation
import Stratus

extension ContractSuite {
    /// Progress reports, and what downloads do to an existing destination.
    static var transferChecks: [ContractCheck.Definition] {
        [uploadProgress, downloadProgress, failedDownloadKeepsDestination, downloadReplacesDestination]
    }

    /// A size that spans a few chunks (for a service without chunked upload, as large as it
    /// accepts), within the round-trip limit.
    private static func progressSize(_ run: ContractRun) -> Int64 {
        let chunks = run.capabilities.chunkSize.multipliedReportingOverflow(by: 2)
        let size = chunks.overflow || !run.capabilities.supportsChunkedUpload ? Int64.max : chunks.partialValue + 1
        return min(size, run.largestUpload, run.options.largestRoundTrip, 16 * 1_048_576 + 1)
    }

    private static let uploadProgress = ContractCheck.Definition(
        "progress: upload reports only grow and end at the size"
    ) { run in
        let size = progressSize(run)
        let local = try run.makeContent("upload-progress", size: size)
        let recorder = ProgressRecorder()
        _ = try await run.upload(
            .file(local), to: try run.path("progress/upload.bin"), options: UploadOptions(progress: recorder.handler))
        try recorder.expectGrowing(to: size, "upload of \(size) bytes")

        let empty = ProgressRecorder()
        _ = try await run.upload(
            .bytes(Data()), to: try run.path("progress/empty.bin"), options: UploadOptions(progress: empty.handler))
        if !empty.received.isEmpty {
            try empty.expectGrowing(to: 0, "upload of 0 bytes")
        }
    }

    private static let downloadProgress = ContractCheck.Definition(
        "progress: download reports only grow and end at the size"
    ) { run in
        let size = progressSize(run)
        let local = try run.makeContent("download-progress", size: size)
        let path = try run.path("progress/download.bin")
        _ = try await run.upload(.file(local), to: path)
        let recorder = ProgressRecorder()
        let (downloaded, _) = try await run.download(path, options: DownloadOptions(progress: recorder.handler))
        try recorder.expectGrowing(to: size, "download of \(size) bytes")
        try run.expectSameContent(downloaded, local, "content downloaded while reporting progress")
    }

    private static let failedDownloadKeepsDestination = ContractCheck.Definition(
        "downloads: a failed download leaves the existing destination untouched"
    ) { run in
        let folder = try run.makeLocalFolder("failed-download")
        let destination = folder.appending(path: "precious.bin")
        let precious = SampleContent.data(count: 4096, seed: "precious")
        do {
            try precious.write(to: destination)
        } catch {
            throw failure("could not write the local file \(destination.path): \(error)")
        }
        try await run.expectError(.notFound, "download of a missing file over an existing destination") {
            try await run.service.download(try run.path("missing.bin"), to: destination)
        }
        try expectEqual(
            try LocalFiles.contents(of: destination), precious, "the destination's content after a failed download")
        try expectEqual(
            try LocalFiles.names(in: folder), ["precious.bin"],
            "files in the destination's folder after a failed download (no temporary file may remain)")
    }

    private static let downloadReplacesDestination = ContractCheck.Definition(
        "downloads: an existing destination is replaced by the whole content"
    ) { run in
        let content = SampleContent.data(count: 1000, seed: "replacement")
        let path = try run.path("replacement.bin")
        _ = try await run.upload(.bytes(content), to: path)
        let folder = try run.makeLocalFolder("replaced-download")
        let destination = folder.appending(path: "existing.bin")
        do {
            try SampleContent.data(count: 5000, seed: "longer, older content").write(to: destination)
        } catch {
            throw failure("could not write the local file \(destination.path): \(error)")
        }
        let file: RemoteFile
        do {
            file = try await run.service.download(path, to: destination)
        } catch {
            throw failure("download over an existing destination threw \(error)")
        }
        try run.expectIntact(destination, file, "download over an existing, longer file")
        try expectEqual(
            try LocalFiles.contents(of: destination), content, "the destination's content after the download")
        try expectEqual(
            try LocalFiles.names(in: folder), ["existing.bin"], "files in the destination's folder after the download")
    }
}
