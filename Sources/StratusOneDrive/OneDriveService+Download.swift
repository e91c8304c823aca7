public import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Downloads: `.../content` (or `.../versions/{id}/content`) answers 302 to a pre-authenticated
/// URL, which is fetched without the bearer token, continued with `Range` after a dropped
/// connection, and checked before the destination is replaced.
extension OneDriveService {
    /// Reads a file (or one of its versions) into a local file. See
    /// ``/Stratus/Service/download(_:version:to:options:)``.
    ///
    /// The current content is checked against Graph's `quickXorHash` (and `sha256Hash` when
    /// Graph reports one); an old version, for which Graph reports no hash, against its size,
    /// and the file returned carries the QuickXorHash of the bytes received.
    /// When the check fails, the download is repeated once from the start with fresh metadata.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try await guarded {
            let progress = MonotonicProgress(options.progress, total: nil)
            var attempt = 1
            while true {
                let item = try await requireFile(at: path)
                let versions = try await graphVersions(of: item.id)
                let current = versions.first.map { VersionID($0.id) } ?? VersionID(item.cTag ?? item.id)
                let described: RemoteFile
                let contentURL: URL
                var oldVersion: OneDriveVersion?
                if let version, version != current {
                    guard let old = versions.first(where: { $0.id == version.rawValue }) else {
                        throw ServiceError(.notFound, "OneDrive has no version \(version) of \(path).")
                    }
                    oldVersion = old
                    described = RemoteFile(
                        path: path, id: item.id, size: old.size ?? 0, modified: old.modified, contentHash: nil,
                        version: version)
                    contentURL = transport.address.item(
                        id: item.id, "versions/" + PercentEncoding.encode(old.id) + "/content")
                } else {
                    described = try await remoteFile(item, at: path, version: current)
                    contentURL = transport.address.item(id: item.id, "content")
                }
                do {
                    let received = try await fetch(
                        contentURL, expecting: described, sha256: oldVersion == nil ? item.sha256Hex : nil,
                        to: destination, progress: progress)
                    guard oldVersion != nil, let received else { return described }
                    // Graph reports no hash for an old version: the one reported is the hash of
                    // the bytes received, whose size was checked.
                    var file = described
                    file.contentHash = ContentHash(algorithm: .quickXorHash, value: received)
                    return file
                } catch let error as ServiceError where error.code == .integrityMismatch && attempt == 1 {
                    logger.warning("A OneDrive download failed its check; fetching it again.")
                    attempt += 1
                }
            }
        }
    }

    /// Asks Graph once for the content's pre-authenticated URL (the 302's `Location`); the
    /// caller's retry loop repeats it.
    func downloadLocation(_ contentURL: URL) async throws -> URL {
        let response = try await transport.send("GET content", repetition: .never, accepted: [302]) {
            StratusHTTPRequest(method: .get, url: contentURL)
        }
        guard response.status == 302, let location = response.headers["Location"],
            let url = URL(string: location, relativeTo: contentURL)?.absoluteURL,
            url.scheme == "https" || url.scheme == "http"
        else {
            throw OneDriveErrorMapping.undecodable(
                "GET content", "the answer (HTTP \(response.status)) has no usable Location for the content")
        }
        return url
    }

    /// Streams the content to a temporary file beside the destination, checks it, and renames
    /// it over the destination. The download URL is asked again when it stops working (it is
    /// short-lived); the bytes already received are kept and the rest asked for with `Range`.
    /// - Returns: The QuickXorHash (hex) of what was received.
    @discardableResult
    private func fetch(
        _ contentURL: URL, expecting file: RemoteFile, sha256: String?, to destination: URL,
        progress: MonotonicProgress
    ) async throws -> String? {
        let staging = try DownloadStaging(for: destination, service: "onedrive")
        defer { staging.discard() }
        var digests: Set<HashAlgorithm> = [.quickXorHash]
        if sha256 != nil { digests.insert(.sha256) }
        let requested = digests
        let response = try await configuration.retryPolicy.run(.safe) { _ in
            try Task.checkCancellation()
            let location = try await downloadLocation(contentURL)
            var request = StratusHTTPRequest(method: .get, url: location, responseDigests: requested)
            request.contentSizeLimit = .bytes(file.size)
            let answer = try await transport.sendWithoutAuthorization(
                request, action: "The OneDrive download", into: .resumableFile(staging.temporary),
                progress: progress.download())
            guard answer.isSuccess else {
                throw OneDriveErrorMapping.error(
                    status: answer.status, headers: answer.headers, body: answer.body, action: "the download",
                    secrets: [location.absoluteString])
            }
            return answer
        }
        if let sha256, response.bodyDigests[.sha256] != sha256 {
            throw ServiceError(
                .integrityMismatch,
                "The content of \(file.path) received from OneDrive does not match its sha256Hash; the destination was left as it was."
            )
        }
        if let expected = file.contentHash?.value {
            try staging.commit(
                response, .quickXorHash, expected: expected, size: file.size, path: file.path, service: "OneDrive",
                digestName: "quickXorHash")
        } else {
            guard response.bodyLength == file.size else {
                throw ServiceError(
                    .integrityMismatch,
                    "OneDrive sent \(response.bodyLength) bytes of \(file.path) where the version has \(file.size); the destination was left as it was."
                )
            }
            try staging.moveIntoPlace()
        }
        progress.report(file.size)
        return response.bodyDigests[.quickXorHash]
    }
}
