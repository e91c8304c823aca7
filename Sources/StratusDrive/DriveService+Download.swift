public import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Downloads through `files.get?alt=media` (or `revisions.get?alt=media`), continued with
/// `Range` after a dropped connection and verified against Drive's `md5Checksum` before the
/// destination is replaced.
extension DriveService {
    /// Reads a file (or one of its revisions) into a local file. See
    /// ``/Stratus/Service/download(_:version:to:options:)``.
    ///
    /// The body goes to a temporary file beside the destination while its MD5 is computed.
    /// When the connection drops midway, the retry asks for the rest with `Range` instead of
    /// starting over. Only a verified file is renamed over the destination, and the temporary
    /// file is removed on every failure and on cancellation. When the check fails (the content
    /// changed between the metadata read and the download, or was damaged on the way), the
    /// download is repeated once from the start with fresh metadata.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try await guarded {
            let progress = MonotonicProgress(options.progress, total: nil)
            var file = try await requireFile(at: path)
            if let version {
                return try await downloadRevision(
                    of: file, at: path, revision: version.rawValue, to: destination, progress: progress)
            }
            var attempt = 1
            while true {
                let url = transport.apiURL("files/\(file.id)", [("alt", "media")])
                let described = try remoteFile(file, at: path, action: "files.get")
                do {
                    try await fetch(url, action: "files.get", expecting: described, to: destination, progress: progress)
                    return described
                } catch let error as ServiceError where error.code == .integrityMismatch && attempt == 1 {
                    // The file changed while it was read, or the bytes were damaged on the way:
                    // read the current head once more.
                    logger.warning("A Drive download failed its MD5 check; fetching it again.")
                    file = try await requireFile(at: path)
                    attempt += 1
                }
            }
        }
    }

    /// Downloads one revision of a file, checked against the revision's `md5Checksum`.
    func downloadRevision(
        of file: DriveFile, at path: RemotePath, revision: String, to destination: URL, progress: MonotonicProgress
    ) async throws -> RemoteFile {
        let meta: DriveRevision
        do {
            meta = try await transport.json(
                "revisions.get", .get,
                transport.apiURL("files/\(file.id)/revisions/\(revision)", [("fields", DriveRevision.fields)]),
                as: DriveRevision.self
            )
        } catch let error as ServiceError where error.code == .notFound || error.httpStatus == 400 {
            throw ServiceError(
                .notFound, "Drive has no revision \(revision) of \(path).", httpStatus: error.httpStatus,
                providerError: error.providerError)
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
    private func fetch(
        _ url: URL, action: String, expecting file: RemoteFile, to destination: URL, progress: MonotonicProgress
    ) async throws {
        guard let expected = file.contentHash?.value else {
            throw DriveErrorMapping.undecodable(action, "Drive reports no md5Checksum to check the content against")
        }
        let staging = try DownloadStaging(for: destination, service: "drive")
        defer { staging.discard() }
        // Safe to repeat: a download changes nothing, and each retry continues the file.
        let response = try await transport.send(
            action, repetition: .safe, destination: .resumableFile(staging.temporary), progress: progress.download()
        ) {
            var request = StratusHTTPRequest(method: .get, url: url, responseDigests: [.md5])
            request.contentSizeLimit = .bytes(file.size)
            return request
        }
        try staging.commit(
            response, .md5, expected: expected, size: file.size, path: file.path, service: "Drive", digestName: "MD5")
        progress.report(file.size)
    }
}
