import Foundation
import GRDB
import Stratus

/// What ``SyncStore/compact(minimumAge:)`` did.
public struct CompactionReport: Hashable, Sendable {
    /// Record document versions read to learn which blobs are in use.
    public var documentsRead = 0
    /// Blobs on the remote.
    public var blobsExamined = 0
    /// Blobs removed: no record version and no local state referenced them, and they were older
    /// than the minimum age.
    public var blobsRemoved = 0
    /// The bytes those blobs held.
    public var bytesRemoved: Int64 = 0
}

extension SyncStore {
    /// Removes blobs from the remote that nothing can need any more: no current record, no
    /// version the service keeps, and nothing in this device's state (unpushed edits,
    /// conflicts, the archive) references them, and they are older than `minimumAge`.
    ///
    /// It is explicit and conservative: it never runs during a sync of this store, the minimum
    /// age protects blobs another device uploaded for a record it has not committed yet, and it
    /// stops without removing anything when any record version cannot be read (a document of
    /// a newer format could reference any blob). Other devices keep their local copies.
    /// - Parameter minimumAge: How old an unreferenced blob must be to go. Default one day.
    /// - Returns: What was examined and removed.
    /// - Throws: ``SyncError``: `service` when the remote cannot be read, `invalidDocument` or
    ///   `unsupportedFormat` when a record version cannot be read (nothing is removed then).
    @discardableResult
    public func compact(minimumAge: Duration = .seconds(86_400)) async throws -> CompactionReport {
        try await scheduler.exclusive { [self] in
            do {
                return try await compactNow(minimumAge: minimumAge)
            } catch {
                throw SyncError.wrapping(error, "Compacting the remote")
            }
        }
    }

    private func compactNow(minimumAge: Duration) async throws -> CompactionReport {
        var report = CompactionReport()
        var referenced = try await state.read { db in
            var hashes = Set<String>()
            for data in try db.everyStoredDocument() {
                for entry in try RecordDocument.decode(data, expectedKey: nil).files.values {
                    hashes.insert(entry.sha256)
                }
            }
            return hashes
        }
        for document in try await listOrEmpty(layout.records) {
            guard let key = layout.key(ofDocument: document.path) else { continue }
            let versions =
                service.capabilities.supportsVersions
                ? try await service.versions(of: document.path).map(\.id) : [document.version]
            for version in versions {
                guard let fetched = try await fetchDocument(document.path, key: key, version: version, run: nil) else {
                    continue
                }
                report.documentsRead += 1
                for entry in try fetched.document.get().files.values { referenced.insert(entry.sha256) }
            }
        }
        let cutoff = Date().addingTimeInterval(-Double(minimumAge.components.seconds))
        for blob in try await listOrEmpty(layout.blobs) {
            report.blobsExamined += 1
            let hash = blob.path.name
            guard BlobHash.isValid(hash), !referenced.contains(hash), blob.modified < cutoff else { continue }
            do {
                try await service.delete(blob.path, precondition: .mustMatch(blob.version))
            } catch let error as ServiceError where error.code == .notFound || error.code == .conflict {
                continue
            }
            try await state.write { db in try db.deleteRemoteBlob(hash) }
            report.blobsRemoved += 1
            let (bytes, overflow) = report.bytesRemoved.addingReportingOverflow(max(0, blob.size))
            report.bytesRemoved = overflow ? .max : bytes
        }
        logger.info(
            "Compaction removed \(report.blobsRemoved) of \(report.blobsExamined) blobs (\(report.bytesRemoved) bytes)."
        )
        return report
    }

    private func listOrEmpty(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await ServiceError.nilIfNotFound { try await service.list(folder) } ?? []
    }
}
