import Foundation
import GRDB
public import Stratus

/// Version history: every version of a record document the service keeps, and a restore that
/// brings back a record with the files it had in that version.
extension SyncStore {
    /// The versions of a record the service keeps, newest first (the first is the current one).
    ///
    /// Each version's document is fetched to show what it held; its files are fetched on
    /// ``restore(_:to:)``. Versions whose document is not valid are left out.
    /// - Throws: ``SyncError``: `unsupported` when the service keeps no history, `notFound`
    ///   when the remote never held the record, `service` for other failures.
    public func versions(of key: RecordKey) async throws -> [RecordVersion] {
        guard service.capabilities.supportsVersions else {
            throw SyncError(.unsupported, "This service keeps no version history, so records cannot be restored.")
        }
        let path = try layout.documentPath(of: key)
        do {
            var result: [RecordVersion] = []
            for version in try await service.versions(of: path) {
                guard let fetched = try await fetchDocument(path, key: key, version: version.id, run: nil),
                    case .success(let document) = fetched.document
                else { continue }
                result.append(
                    RecordVersion(id: version.id, stored: version.modified, record: makeRecord(document)))
            }
            return result
        } catch let error as ServiceError where error.code == .notFound {
            throw SyncError(.notFound, "The remote holds no versions of \(key).", underlying: error)
        } catch {
            throw SyncError.wrapping(error, "Reading the versions of \(key)")
        }
    }

    /// Brings a record back as it was in a version, files included, as a new local edit that
    /// the next ``sync()`` pushes. History only grows: the side it replaces stays in the
    /// history, and a local side that was not pushed goes to the archive.
    /// - Parameters:
    ///   - key: The record.
    ///   - version: A ``RecordVersion/id`` from ``versions(of:)``.
    /// - Returns: The record as restored.
    /// - Throws: ``SyncError``: `notFound` for an unknown version, `invalidDocument` when that
    ///   version is not valid, `missingBlob` or `blobMismatch` when its files cannot be had.
    @discardableResult
    public func restore(_ key: RecordKey, to version: VersionID) async throws -> SyncRecord {
        let path = try layout.documentPath(of: key)
        let old: RecordDocument
        do {
            guard let fetched = try await fetchDocument(path, key: key, version: version, run: nil) else {
                throw SyncError(.notFound, "The remote has no version \(version) of \(key).")
            }
            old = try fetched.document.get()
            try await fetchFiles(of: old, run: nil)
        } catch let error as ServiceError where error.code == .notFound {
            throw SyncError(.notFound, "The remote has no version \(version) of \(key).", underlying: error)
        } catch {
            throw SyncError.wrapping(error, "Restoring \(key) to version \(version)")
        }
        let device = deviceName
        let restored = try await commitLocalEdit { db in
            let existing = try RecordRow.fetch(db, key)
            if let existing, existing.dirty, try !db.hasConflict(key), !existing.document.hasSameContent(as: old) {
                try db.archive(existing.document, reason: "Replaced by a restore of version \(version).")
            }
            let document = RecordDocument(
                key: key, edit: RecordDocument.newEdit(), device: device, modified: Date(), isDeleted: old.isDeleted,
                value: old.value, files: old.files, unknownFields: old.unknownFields
            )
            try Self.writeLocal(db, document, over: existing)
            return (
                document, [RecordChange(key: key, kind: document.isDeleted ? .deleted : .updated, origin: .restore)]
            )
        }
        return makeRecord(restored)
    }
}
