import Foundation
import Stratus
import StratusDigest
import StratusHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Downloads through `files.get?alt=media` (or `revisions.get?alt=media`), verified against
/// Drive's `md5Checksum` before the destination is replaced.
extension DriveService {
    /// Reads a file (or one of its revisions) into a local file. See
    /// ``Stratus/Service/download(_:version:to:options:)``.
    ///
    /// The body goes to a temporary file beside the destination while its MD5 is computed;
    /// only a verified file is renamed over the destination, and the temporary file is removed
    /// on every failure and on cancellation. When the current content changes between the
    /// metadata read and the download, the download is repeated once with the new metadata.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws -> RemoteFile {
        try await guarded {
            let progress = DriveProgress(options.progress, total: nil)
            var file = try await requireFile(at: path)
            if let version {
                return try await downloadRevision(of: file, at: path, revision: version.rawValue, to: destination, progress: progress)
            }
            for attempt in 1...2 {
                let url = transport.apiURL("files/\(file.id)", [("alt", "media")])
                let described = try remoteFile(file, at: path, action: "files.get")
                do {
                    try await fetch(url, action: "files.get", expecting: described, to: destination, progress: progress)
                    return described
                } catch let error as ServiceError where error.code == .integrityMismatch && attempt == 1 {
                    let now = try await requireFile(at: path)
                    guard now.headRevisionId != file.headRevisionId else { throw error }
                    file = now
                }
            }
            throw ServiceError(.integrityMismatch, "The content of \(path) kept changing while it was downloaded; try again.")
        }
    }

    /// Downloads one revision of a file, checked against the revision's `md5Checksum`.
    func downloadRevision(of file: DriveFile, at path: RemotePath, revision: String, to destination: URL, progress: DriveProgress) async throws -> RemoteFile {
        let meta: DriveRevision
        do {
            meta = try await transport.json(
                "revisions.get", .get,
                transport.apiURL("files/\(file.id)/revisions/\(revision)", [("fields", DriveRevision.fields)]),
                as: DriveRevision.self
            )
        } catch let error as ServiceError where error.code == .notFound || error.httpStatus == 400 {
            throw ServiceError(.notFound, "Drive has no revision \(revision) of \(path).", httpStatus: error.httpStatus, providerError: error.providerError)
        }
        guard let size = meta.size else {
            throw DriveErrorMapping.undecodable("revisions.get", "revision \(revision) has no size")
        }
        let described = RemoteFile(
            path: path, id: file.id, size: size,
            modified: meta.modifiedTime ?? Date(timeIntervalSince1970: 0),
            contentHash: meta.md5Checksum.map { ContentHash(algorithm: .md5, value: $0) },
            version: VersionID(meta.id),
            metadata: file.appProperties ?? [:]
        )
        let url = transport.apiURL("files/\(file.id)/revisions/\(revision)", [("alt", "media")])
        try await fetch(url, action: "revisions.get", expecting: described, to: destination, progress: progress)
        return described
    }

    /// Streams a media URL to a temporary file, checks size and MD5, and renames it over the
    /// destination.
    private func fetch(_ url: URL, action: String, expecting file: RemoteFile, to destination: URL, progress: DriveProgress) async throws {
        guard let expected = file.contentHash?.value else {
            throw DriveErrorMapping.undecodable(action, "Drive reports no md5Checksum to check the content against")
        }
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appending(path: ".\(destination.lastPathComponent).\(UUID().uuidString).drive-download")
        defer { try? FileManager.default.removeItem(at: temporary) }
        // Safe to repeat: a download changes nothing.
        let response = try await transport.send(action, repetition: .safe, destination: .file(temporary), progress: progress.download()) {
            HTTPRequest(method: .get, url: url, responseDigests: [.md5])
        }
        guard let actual = response.bodyDigests[.md5] else {
            throw ServiceError(.integrityMismatch, "The downloaded content of \(file.path) could not be hashed; the destination was left as it was.")
        }
        guard actual == expected, response.bodyLength == file.size else {
            throw ServiceError(
                .integrityMismatch,
                "The content of \(file.path) received from Drive (\(response.bodyLength) bytes, MD5 \(actual)) does not match what Drive reports (\(file.size) bytes, md5Checksum \(expected)); the destination was left as it was."
            )
        }
        try Task.checkCancellation()
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw ServiceError(.localFile, "The download could not be moved into place at \(destination.path): \(reason).")
        }
        progress.report(file.size)
    }
}
