import Foundation
public import Stratus
import StratusAdapterKit

/// The change feed over `files/list_folder/get_latest_cursor` and `files/list_folder/continue`.
///
/// `list_folder/continue` reports the latest state of each changed path, so a file written and
/// then deleted between two reads shows only as deleted. For each deleted file the adapter
/// asks `list_revisions` for its last revision and, when that was written after the token's
/// server time, reports it as upserted just before the deletion.
extension DropboxService {
    /// A cursor for the current state of the root, recursive.
    public func latestChangeToken() async throws -> ChangeToken {
        try await guarded {
            do {
                let (cursor, time) = try await latestCursor(paths.dropboxPath(.root))
                return DropboxChangeCursor(isAccountWide: false, issuedAt: time, cursor: cursor).token
            } catch let error as ServiceError where error.code == .notFound && !paths.rootComponents.isEmpty {
                let (cursor, time) = try await latestCursor("")
                return DropboxChangeCursor(isAccountWide: true, issuedAt: time, cursor: cursor).token
            }
        }
    }

    private func latestCursor(_ path: String) async throws -> (String, Int64?) {
        let route = "files/list_folder/get_latest_cursor"
        var arguments: [(String, StoneValue)] = [
            ("path", .string(path)),
            ("recursive", .bool(true)),
            ("include_deleted", .bool(false)),
        ]
        if let limit = configuration.pageSize { arguments.append(("limit", .integer(Int64(limit)))) }
        let (result, response) = try await transport.rpcWithResponse(
            route, .object(arguments), as: DropboxCursorResult.self)
        return (result.cursor, HTTPDate.serverTime(response.headers))
    }

    /// One page of changes since a token: files added or changed, and deleted paths (a deleted
    /// folder is reported as one deleted path). Folder entries are skipped.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await guarded {
            let since = try DropboxChangeCursor(token)
            let route = "files/list_folder/continue"
            let (page, response) = try await transport.rpcWithResponse(
                route, .object([("cursor", .string(since.cursor))]), as: DropboxListFolderResult.self
            )
            var changes: [Change] = []
            for entry in page.entries {
                guard let path = (entry.pathDisplay ?? entry.pathLower).flatMap(paths.remotePath(fromDropbox:)) else {
                    continue
                }
                switch entry.kind {
                case "file":
                    changes.append(.upserted(try paths.file(from: entry, route: route, requested: nil)))
                case "deleted":
                    if let last = await lastRevisionOfDeleted(path, since: since.issuedAt) {
                        changes.append(.upserted(last))
                    }
                    changes.append(.deleted(path))
                case "folder":
                    continue
                default:
                    throw DropboxErrorMapping.undecodable(
                        route: route, "an entry has the unknown tag \(entry.kind ?? "(none)")")
                }
            }
            // Until the feed is read to its end, the next pages still hold changes from the
            // token's time on.
            let issued = page.hasMore ? since.issuedAt : (HTTPDate.serverTime(response.headers) ?? since.issuedAt)
            let next = DropboxChangeCursor(isAccountWide: since.isAccountWide, issuedAt: issued, cursor: page.cursor)
            return ChangePage(changes: changes, nextToken: next.token, hasMore: page.hasMore)
        }
    }

    /// The last revision of a deleted file when it was written at or after `time` (a second
    /// early, as both clocks have one-second resolution); `nil` otherwise, or for a folder, or
    /// when Dropbox does not say.
    private func lastRevisionOfDeleted(_ path: RemotePath, since time: Int64?) async -> RemoteFile? {
        guard let time else { return nil }
        let route = "files/list_revisions"
        let argument = StoneValue.object([
            ("path", .string(paths.dropboxPath(path))),
            ("mode", .string("path")),
            ("limit", .integer(1)),
        ])
        guard let result = try? await transport.rpc(route, argument, as: DropboxRevisionsResult.self),
            let entry = result.entries.first,
            let file = try? paths.file(from: entry, route: route, requested: path),
            Int64(file.modified.timeIntervalSince1970) >= time - 1
        else {
            return nil
        }
        return file
    }
}
