import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

/// The final `MOVE <transfer-id>/.file` of a chunked upload.
extension MockNextcloudServer {
    func assemble(_ request: Request, id: String) async throws -> Response {
        let target = try filesTarget(of: request)
        guard !target.isEmpty else { throw NextcloudFailure.conflict("The root is a folder") }
        let expected = try Self.totalLength(request)
        let ifHeader = request.headers[HTTPField.Name("If")!]
        let preconditions = NextcloudPreconditions(request)
        let overwrite = request.headers[HTTPField.Name("Overwrite")!] != "F"
        try checkTarget(target, ifHeader: ifHeader, preconditions: preconditions, overwrite: overwrite)
        // Claimed for the assembly: chunk writes, an abort and a second MOVE now wait their turn.
        let transfer = try uploads.withTransfers { transfers in
            guard var transfer = transfers[id] else { throw Self.noUploadFolder(id) }
            guard !transfer.assembling else { throw NextcloudFailure.locked(id) }
            if transfer.isVersion2, request.headers[HTTPField.Name("Destination")!] == nil {
                throw NextcloudFailure.badRequest("The destination header was not supplied")
            }
            if let expected, expected != transfer.totalSize {
                throw NextcloudFailure.badRequest(
                    "Chunks on server do not sum up to \(expected) but to \(transfer.totalSize) bytes")
            }
            transfer.assembling = true
            transfers[id] = transfer
            return transfer
        }
        let received: BlobInfo
        do {
            // Copying gigabytes blocks: it runs on a Dispatch thread, not one of the few threads
            // of Swift's cooperative pool, which the mock's other requests need meanwhile.
            received = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try self.concatenate(transfer) })
                }
            }
        } catch {
            uploads.withTransfers { $0[id]?.assembling = false }
            throw error
        }
        let requestedMtime = Self.requestedMtime(request)
        let checksum = request.headers[HTTPField.Name("OC-Checksum")!]
        let written = Result<(node: NextcloudNode, created: Bool), any Error> {
            try store.withState { state in
                guard state.permits(target, ifHeader: ifHeader) else { throw NextcloudFailure.locked(target) }
                try preconditions.check(currentETag: state.nodes[target]?.etag)
                if state.nodes[target] != nil, !overwrite { throw Self.destinationExists }
                return try state.write(received, to: target, modified: requestedMtime, checksum: checksum)
            }
        }
        // The upload folder goes whether the write was made or refused at the last moment (a
        // concurrent write of the target): Nextcloud removes it once the MOVE ran.
        uploads.withTransfers { $0[id] = nil }
        NextcloudUploads.removeFiles(of: transfer)
        let (node, created) = try written.get()
        return Self.written(node, created: created, mtimeAccepted: requestedMtime != nil)
    }

    static let destinationExists = NextcloudFailure(
        status: 412, exception: "Sabre\\DAV\\Exception\\PreconditionFailed",
        message: "The destination node already exists, and the overwrite header is set to false")

    /// `OC-Total-Length` as a number, if sent.
    private static func totalLength(_ request: Request) throws -> Int64? {
        guard let text = request.headers[HTTPField.Name("OC-Total-Length")!] else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw NextcloudFailure.badRequest("OC-Total-Length is not a number")
        }
        return value
    }

    /// Refuses early (before any byte is copied) a target that cannot be written.
    private func checkTarget(
        _ target: String, ifHeader: String?, preconditions: NextcloudPreconditions, overwrite: Bool
    ) throws {
        try store.withState { state in
            guard let parent = NextcloudStore.State.parent(of: target), state.nodes[parent]?.isFolder == true else {
                throw NextcloudFailure.conflict("The destination node is not found")
            }
            if state.nodes[target]?.isFolder == true { throw NextcloudFailure.conflict("A folder is at \(target)") }
            guard state.permits(target, ifHeader: ifHeader) else { throw NextcloudFailure.locked(target) }
            try preconditions.check(currentETag: state.nodes[target]?.etag)
            if state.nodes[target] != nil, !overwrite { throw Self.destinationExists }
        }
    }

    /// Copies the chunks, in order, into one blob, 1 MiB at a time.
    private func concatenate(_ transfer: NextcloudTransfer) throws -> BlobInfo {
        let scratch = try blobs.makeScratchFile()
        do {
            let output = try FileHandle(forWritingTo: scratch)
            defer { try? output.close() }
            let digests = BlobDigests()
            var count: Int64 = 0
            for (_, chunk) in transfer.orderedChunks {
                let input = try FileHandle(forReadingFrom: chunk.file)
                defer { try? input.close() }
                while let data = try input.read(upToCount: 1 << 20), !data.isEmpty {
                    data.withUnsafeBytes { digests.update($0) }
                    try output.write(contentsOf: data)
                    count += Int64(data.count)
                }
            }
            return try blobs.commit(scratch, info: digests.finalize(size: count))
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
    }
}
