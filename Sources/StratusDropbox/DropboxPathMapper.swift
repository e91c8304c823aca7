import Foundation
import Stratus

/// Maps ``/Stratus/RemotePath`` values under the configured root to Dropbox paths and back.
///
/// With root `Backups/app`, `a/b.txt` is `/Backups/app/a/b.txt`. Dropbox matches paths without
/// regard to case, so answers are mapped back by comparing lowercased components.
struct DropboxPathMapper: Sendable {
    /// The root's components inside the Dropbox account (or app folder); empty for the top.
    let rootComponents: [String]

    /// The rules Dropbox applies to names: case-insensitive, no backslash, at most 255 bytes a
    /// name. (Dropbox rejects some further names, such as ones ending in a space or a dot on
    /// some clients; those come back as ``/Stratus/ServiceError/Code/invalidPath`` from the
    /// server's `malformed_path` / `disallowed_name`.)
    static let rules = PathRules(isCaseSensitive: false, forbiddenCharacters: ["\\"], maximumComponentLength: 255)

    /// Creates a mapper.
    /// - Parameter root: The root folder, such as `""`, `/` or `/Backups/app`.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a root that is not a
    ///   valid path.
    init(root: String) throws {
        do {
            let path = try RemotePath(root.hasSuffix("/") ? String(root.dropLast()) : root)
            try DropboxPathMapper.rules.validate(path)
            rootComponents = path.components
        } catch let error as ServiceError {
            throw ServiceError(
                .invalidConfiguration, "The Dropbox option 'root' is not a valid folder path: \(error.message)")
        }
    }

    /// The Dropbox path of a file or folder: `/root/a/b`; the top of the account is `""`.
    func dropboxPath(_ path: RemotePath) -> String {
        let all = rootComponents + path.components
        return all.isEmpty ? "" : "/" + all.joined(separator: "/")
    }

    /// Checks a path against Dropbox's rules before it is sent.
    func validate(_ path: RemotePath) throws {
        try DropboxPathMapper.rules.validate(path)
    }

    /// The path below the root of a path Dropbox reported, or `nil` when it lies outside the
    /// root (or is the root itself).
    /// - Parameter display: `path_display` (preferred, keeps the case) or `path_lower`.
    func remotePath(fromDropbox display: String) -> RemotePath? {
        let parts = display.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count > rootComponents.count else { return nil }
        for (mine, theirs) in zip(rootComponents, parts) where mine.lowercased() != theirs.lowercased() {
            return nil
        }
        return try? RemotePath(parts.dropFirst(rootComponents.count).joined(separator: "/"))
    }
}

extension DropboxPathMapper {
    /// A ``/Stratus/RemoteFile`` from a file's metadata.
    /// - Parameter requested: The path asked about, in the caller's spelling; `nil` to use the
    ///   path Dropbox reports (listings).
    func file(from entry: DropboxMetadata, route: String, requested: RemotePath?) throws -> RemoteFile {
        guard let rev = entry.rev, let size = entry.size, let modifiedText = entry.serverModified,
            let modified = DropboxMetadata.date(modifiedText)
        else {
            throw DropboxErrorMapping.undecodable(route: route, "a file entry lacks rev, size or server_modified")
        }
        let reported = (entry.pathDisplay ?? entry.pathLower).flatMap(remotePath(fromDropbox:))
        guard let path = requested ?? reported else {
            throw DropboxErrorMapping.undecodable(route: route, "a file entry has no path under the root")
        }
        return RemoteFile(
            path: path,
            id: entry.id ?? "",
            size: size,
            modified: modified,
            contentHash: entry.contentHash.map { ContentHash(algorithm: .dropboxContentHash, value: $0) },
            version: VersionID(rev),
            metadata: try DropboxCustomMetadata.metadata(from: entry.propertyGroups, route: route)
        )
    }
}
