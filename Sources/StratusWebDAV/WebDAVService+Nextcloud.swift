import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Nextcloud's versions endpoint: `<dav>/versions/<user>/versions/<fileid>/` lists a file's
/// older versions (each named by its modification time in Unix seconds), a GET of one reads it,
/// and a MOVE of one to `<dav>/versions/<user>/restore/target` makes it current (Nextcloud
/// keeps the content it replaces as a version).
///
/// On Nextcloud a version's id is its modification time, `m<seconds>`, the name Nextcloud gives
/// it. Each write sends `X-OC-Mtime` one second past the file's current time when the clock has
/// not moved on, so writes of one file under the lock never share a version name.
extension WebDAVService {
    /// The versions endpoint of a file, ending in `/`.
    func nextcloudVersionsURL(fileID: String) throws -> URL {
        guard let layout = configuration.nextcloudLayout,
            var components = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false)
        else {
            throw ServiceError(.invalidConfiguration, "The remote's URL is not in a Nextcloud files collection.")
        }
        components.percentEncodedPath =
            "\(layout.base)/versions/\(layout.user)/versions/\(WebDAVTransport.encode(fileID))/"
        components.query = nil
        guard let url = components.url else {
            throw ServiceError(.invalidConfiguration, "No versions URL for file \(fileID).")
        }
        return url
    }

    /// The version name of an entry on Nextcloud: its modification time in seconds.
    static func nextcloudVersionName(_ entry: WebDAVEntry) -> String {
        "m\(Int64(entry.modified?.timeIntervalSince1970 ?? 0))"
    }

    /// The latest time a version's name may give: the last second of the year 9999, the latest
    /// an HTTP date (and so a file's modification time, which names its version) can say.
    static let latestNextcloudVersionSeconds: Int64 = 253_402_300_799

    /// The time a name in a file's versions folder gives, in Unix seconds; `nil` for a name that
    /// is no number (which names no version, and is passed over).
    /// - Parameters:
    ///   - name: The name, as the server lists it.
    ///   - path: The file, for the message.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` for a number before 1970 or
    ///   after the year 9999 (a version can be neither, and it would be shown as such a date).
    static func nextcloudVersionSeconds(_ name: Substring, of path: RemotePath) throws -> Int64? {
        let digits = name.hasPrefix("-") ? name.dropFirst() : name
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        guard let seconds = Int64(name), (0...latestNextcloudVersionSeconds).contains(seconds) else {
            throw ServiceError(
                .invalidResponse,
                "Nextcloud lists a version of \(path) named \(String(name.prefix(40)).debugDescription), which is no time between 1970 and the year 9999 in Unix seconds; the versions were not read."
            )
        }
        return seconds
    }

    /// The older versions of a file (not the current one), newest first, with their URLs.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` when a version's name is a time
    ///   out of range (see ``nextcloudVersionSeconds(_:of:)``).
    func nextcloudOlderVersions(_ current: WebDAVEntry, path: RemotePath) async throws -> [(
        version: FileVersion, url: URL
    )] {
        guard let fileID = current.fileID else {
            throw WebDAVErrorMapping.undecodable("PROPFIND of \(path)", "Nextcloud gave the file no oc:fileid")
        }
        let folder = try nextcloudVersionsURL(fileID: fileID)
        let entries =
            try await transport.propfind(folder, depth: 1, action: "PROPFIND of the versions of \(path)") ?? []
        let folderPath = WebDAVEntry.hrefPath(folder.path(percentEncoded: true))
        let hashes = Dictionary(WebDAVProperties.history(current.history), uniquingKeysWith: { $1 })
        var versions: [(FileVersion, URL)] = []
        for entry in entries where !entry.isCollection {
            var href = Substring(entry.href)
            while href.hasSuffix("/") { href = href.dropLast() }
            guard href.hasPrefix(folderPath) else { continue }
            let name = href.dropFirst(folderPath.count)
            guard !name.isEmpty, !name.contains("/"), let seconds = try Self.nextcloudVersionSeconds(name, of: path)
            else { continue }
            let url = try WebDAVTransport.url(in: folder, named: String(name))
            let hash = hashes["m\(seconds)"].map { ContentHash(algorithm: .sha256, value: $0) }
            versions.append(
                (
                    FileVersion(
                        id: VersionID("m\(seconds)"), size: entry.size ?? 0,
                        modified: Date(timeIntervalSince1970: Double(seconds)), contentHash: hash), url
                ))
        }
        return versions.sorted { $0.0.modified > $1.0.modified }
    }

    func nextcloudVersions(_ path: RemotePath) async throws -> [FileVersion] {
        guard let current = try await entry(path), !current.isCollection else {
            throw ServiceError(.notFound, "No file at \(path).")
        }
        let now = file(path, from: current)
        let older = try await nextcloudOlderVersions(current, path: path).map(\.version).filter { $0.id != now.version }
        return [FileVersion(id: now.version, size: now.size, modified: now.modified, contentHash: now.contentHash)]
            + older
    }

    /// The older version a download asks for, or `nil` when it is the current one.
    func nextcloudVersion(_ path: RemotePath, _ version: VersionID) async throws -> (version: FileVersion, url: URL)? {
        guard let current = try await entry(path), !current.isCollection else {
            throw ServiceError(.notFound, "No file at \(path).")
        }
        if version == self.version(of: current) { return nil }
        guard
            let found = try await nextcloudOlderVersions(current, path: path).first(where: { $0.version.id == version })
        else {
            throw ServiceError(.notFound, "\(path) has no version \(version).")
        }
        return found
    }

    /// Downloads an older version, checked against the hash the adapter recorded when it wrote
    /// it (the history property); a version another program wrote is checked by size only, and
    /// described with the hash of what arrived.
    func downloadVersion(
        _ path: RemotePath, _ old: (version: FileVersion, url: URL), to destination: URL, options: DownloadOptions
    ) async throws -> RemoteFile {
        let staging = try DownloadStaging(for: destination, service: "webdav")
        defer { staging.discard() }
        let entry = WebDAVEntry(href: "", isCollection: false, size: old.version.size, modified: old.version.modified)
        var described = RemoteFile(
            path: path, id: path.string, size: old.version.size, modified: old.version.modified,
            contentHash: old.version.contentHash, version: old.version.id)
        let received = try await receive(
            old.url, entry: entry, described: described, into: staging, path: path, progress: options.progress)
        try staging.moveIntoPlace()
        if described.contentHash == nil, let received {
            described.contentHash = ContentHash(algorithm: .sha256, value: received)
        }
        return described
    }

    /// Restores an older version with MOVE to the restore target, then records the state of the
    /// restored content (hashed by reading it back).
    func nextcloudRestore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        let restored = try await withPathLock(path) { () -> RemoteFile in
            guard let old = try await nextcloudVersion(path, version) else {
                throw ServiceError(
                    .conflict,
                    "\(version) is the current version of \(path) already; a restore would not add to its history.")
            }
            guard let layout = configuration.nextcloudLayout,
                let origin = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false)
            else {
                throw ServiceError(.invalidConfiguration, "The remote's URL is not in a Nextcloud files collection.")
            }
            var target = origin
            target.percentEncodedPath = "\(layout.base)/versions/\(layout.user)/restore/target"
            target.query = nil
            guard let destination = target.url else { throw ServiceError(.invalidConfiguration, "No restore URL.") }
            let before = try await entry(path)?.etag
            let request = transport.request(
                WebDAVTransport.move, old.url, headers: [("Destination", destination.absoluteString)],
                isIdempotent: false)
            // After a failure of unknown outcome, a new ETag means the MOVE went through: the
            // path's lock keeps other Stratus writers out.
            try await configuration.retryPolicy.runWrite(lookFirst: {
                try await self.entry(path)?.etag != before ? () : nil
            }) { _ in
                _ = try await self.transport.send(
                    request, action: "MOVE of version \(version) of \(path) to restore it", repetition: .never)
            }
            guard var entry = try await entry(path), let etag = entry.etag else {
                throw ServiceError(.notFound, "No file at \(path) after the restore.")
            }
            if configuration.keepsDeadProperties {
                let sha256 = try await hashContent(try url(for: path), path: path)
                let state = WebDAVState(sha256: sha256, token: Self.newVersionToken(), etag: etag)
                let history = WebDAVProperties.history(
                    entry.history, adding: Self.nextcloudVersionName(entry), sha256: sha256)
                try await recordState(
                    state, metadata: WebDAVProperties.decode(entry.metadata), history: history, of: path)
                entry.state = state
                entry.history = history
            }
            return file(path, from: entry)
        }
        await appendJournal(.upserted(restored))
        return restored
    }

    /// The SHA-256 of a file's content, read as a stream and not kept.
    private func hashContent(_ url: URL, path: RemotePath) async throws -> String {
        let action = "GET of \(path) to hash it"
        return try await configuration.retryPolicy.run(.safe) { _ in
            let digest = SHA256Digest()
            do {
                let response = try await transport.http.stream(transport.request(.get, url))
                guard response.status == 200 else {
                    throw WebDAVErrorMapping.error(
                        status: response.status, headers: response.headers, body: Data(), action: action,
                        secrets: transport.secrets)
                }
                for try await chunk in response.body { digest.update(chunk) }
            } catch {
                throw ServiceError.transportFailure(error, action: action)
            }
            return Hex.encode(digest.finalize())
        }
    }
}
