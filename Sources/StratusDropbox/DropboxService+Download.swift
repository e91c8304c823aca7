public import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Downloads through `files/download`, continued with `Range` after a dropped connection and
/// verified against the `content_hash` in `Dropbox-API-Result` before the destination is
/// replaced.
extension DropboxService {
    /// Reads a file (or one of its versions, as `rev:<rev>`) into a local file. See
    /// ``/Stratus/Service/download(_:version:to:options:)``.
    ///
    /// The body goes to a temporary file beside the destination while its content hash is
    /// computed. When the connection drops midway, the retry asks for the rest with `Range`
    /// instead of starting over (Dropbox's content routes take range requests). Only a
    /// verified file is renamed over the destination, and the temporary file is removed on
    /// every failure and on cancellation. Content that fails the check (damaged on the way, or
    /// changed between the two parts of a resumed download) is fetched once more from the start
    /// before the call throws ``/Stratus/ServiceError/Code/integrityMismatch``.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try await guarded {
            guard !path.isRoot else {
                throw ServiceError(.notFound, "The root is a folder, not a file.")
            }
            try paths.validate(path)
            if let version, !DropboxService.isRevision(version) {
                throw ServiceError(.notFound, "\(version) is not a Dropbox revision of \(path).")
            }
            let target = version.map { "rev:" + $0.rawValue } ?? paths.dropboxPath(path)
            let staging = try DownloadStaging(for: destination, service: "dropbox")
            defer { staging.discard() }
            let progress = MonotonicProgress(options.progress, total: nil)
            var attempt = 1
            while true {
                do {
                    let file = try await fetchVerified(path, target: target, into: staging, progress: progress)
                    progress.report(file.size)
                    return file
                } catch let error as ServiceError where error.code == .integrityMismatch && attempt < 2 {
                    logger.warning(
                        "A Dropbox download failed its content check; fetching it again.", metadata: ["path": "\(path)"]
                    )
                    try staging.restart()
                    attempt += 1
                }
            }
        }
    }

    /// Fetches content into the staging file and, when it matches the `content_hash` and size
    /// Dropbox reports, moves it into place.
    private func fetchVerified(
        _ path: RemotePath, target: String, into staging: DownloadStaging, progress: MonotonicProgress
    ) async throws -> RemoteFile {
        let route = "files/download"
        // Safe to repeat: a download changes nothing, and each retry continues the file.
        let response = try await transport.send(
            route: route,
            host: .content,
            headerArgument: .object([("path", .string(target))]),
            destination: .resumableFile(staging.temporary),
            responseDigests: [.dropboxContentHash],
            repetition: .safe,
            // The body stops at the size Dropbox-API-Result declares.
            contentSizeLimit: .declared { headers in
                headers["Dropbox-API-Result"].flatMap {
                    try? JSONDecoder().decode(DeclaredSize.self, from: Data($0.utf8)).size
                }
            },
            progress: progress.download()
        )
        try await transport.check(response, route: route)
        guard let header = response.headers["Dropbox-API-Result"] else {
            throw DropboxErrorMapping.undecodable(route: route, "the Dropbox-API-Result header is missing")
        }
        let entry = try DropboxTransport.decode(DropboxMetadata.self, from: Data(header.utf8), route: route)
        let file = try paths.file(from: entry, route: route, requested: path)
        guard let expected = file.contentHash?.value else {
            throw DropboxErrorMapping.undecodable(
                route: route, "the result has no content_hash to check the content against")
        }
        try staging.commit(
            response, .dropboxContentHash, expected: expected, size: file.size, path: path, service: "Dropbox",
            digestName: "content_hash")
        return file
    }
}

/// The one field of `Dropbox-API-Result` a download's body is held to while it arrives.
private struct DeclaredSize: Decodable {
    let size: Int64
}
