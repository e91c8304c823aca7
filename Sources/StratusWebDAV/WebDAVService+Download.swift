public import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP
import Synchronization

/// Downloads: PROPFIND for what to expect, GET into a temporary file beside the destination
/// (resumed with `Range` after a dropped connection), checked, then renamed into place.
extension WebDAVService {
    /// Reads a file (or, on Nextcloud, one of its versions) into a local file. See
    /// ``/Stratus/Service/download(_:version:to:options:)``.
    ///
    /// The body is hashed as it arrives. Every answer's ETag must be the one PROPFIND reported;
    /// when the file changed meanwhile, the download starts over with the new description (at
    /// most three times). The content is checked against the recorded SHA-256 (or the MD5 ETag),
    /// or only its size where the server has no hash for it (a file another program wrote).
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try await guarded {
            try validateFile(path)
            if let version, configuration.vendor == .nextcloud {
                if let old = try await nextcloudVersion(path, version) {
                    return try await downloadVersion(path, old, to: destination, options: options)
                }
            }
            let staging = try DownloadStaging(for: destination, service: "webdav")
            defer { staging.discard() }
            var lastChange: ServiceError?
            var damaged = false
            for _ in 0..<3 {
                guard let entry = try await entry(path), !entry.isCollection else {
                    throw ServiceError(.notFound, "No file at \(path).")
                }
                let described = file(path, from: entry)
                if let version, described.version != version {
                    throw ServiceError(
                        .notFound,
                        "\(path) has no version \(version) that this server keeps; only the current one can be read.")
                }
                do {
                    try await receive(
                        try url(for: path), entry: entry, described: described, into: staging, path: path,
                        progress: options.progress)
                } catch let error as ContentChanged {
                    lastChange = ServiceError(.conflict, "\(path) changed during the download: \(error.reason)")
                    try staging.restart()
                    continue
                } catch let error as ServiceError where error.code == .integrityMismatch && !damaged {
                    // Content damaged on the way is rarely damaged twice: fetch it once more.
                    damaged = true
                    lastChange = error
                    try staging.restart()
                    continue
                }
                try staging.moveIntoPlace()
                return described
            }
            throw lastChange ?? ServiceError(.conflict, "\(path) kept changing during the download.")
        }
    }

    /// The file changed between the description and the answer.
    struct ContentChanged: Error {
        var reason: String
    }

    /// The ETag of an answer for content that changed since it was described, seen as its
    /// headers arrived.
    private final class ChangedETag: Sendable {
        let tag = Mutex<String?>(nil)
    }

    /// GETs into the staging file in the retry loop (each attempt resumes where the last one
    /// stopped), then checks size and hash.
    /// - Returns: The hex digest of what arrived, under the service's hash algorithm.
    @discardableResult
    func receive(
        _ url: URL, entry: WebDAVEntry, described: RemoteFile, into staging: DownloadStaging, path: RemotePath,
        progress handler: ProgressHandler?
    ) async throws -> String? {
        let action = "GET of \(path)"
        let algorithm = capabilities.hashAlgorithm
        var built = transport.request(.get, url)
        built.responseDigests = [algorithm]
        // The body stops at the size the listing described; an answer for content that changed
        // since (another ETag) is refused before its body, and the download starts again.
        let changedTo = ChangedETag()
        built.contentSizeLimit = .declared { headers in
            if let expected = entry.etag, let tag = headers["ETag"].map(WebDAVEntry.normalizedETag), !tag.isEmpty,
                tag != expected
            {
                changedTo.tag.withLock { $0 = tag }
                return 0
            }
            return described.size
        }
        let request = built
        let progress = MonotonicProgress(handler, total: described.size)
        let response: StratusHTTPResponse
        do {
            response = try await transport.send(
                request, action: action, repetition: .safe, destination: .resumableFile(staging.temporary),
                progress: progress.download()
            )
        } catch {
            if let tag = changedTo.tag.withLock({ $0 }), let expected = entry.etag {
                throw ContentChanged(reason: "its ETag is \(tag), not \(expected)")
            }
            throw error
        }
        if let hash = described.contentHash {
            let actual = response.bodyDigests[algorithm] ?? "none"
            guard actual == hash.value, response.bodyLength == described.size else {
                throw ServiceError(
                    .integrityMismatch,
                    "The content of \(path) received from the WebDAV server (\(response.bodyLength) bytes, \(algorithm.rawValue) \(actual)) does not match what the server describes (\(described.size) bytes, \(algorithm.rawValue) \(hash.value)); the destination was left as it was."
                )
            }
        } else if response.bodyLength != described.size {
            throw ServiceError(
                .integrityMismatch,
                "\(response.bodyLength) bytes of \(path) arrived where the server describes \(described.size); the destination was left as it was."
            )
        }
        return response.bodyDigests[algorithm]
    }
}
