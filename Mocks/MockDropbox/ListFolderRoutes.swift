import Foundation
import Hummingbird
import MockSupport

/// `list_folder`, `list_folder/continue`, `list_folder/get_latest_cursor` and
/// `list_folder/longpoll`.
extension MockDropboxServer {
    /// Reads `ListFolderArg` into a cursor at the start of a listing.
    private func listCursor(_ arguments: DropboxArguments) throws -> ListCursor {
        let raw = try arguments.string("path")
        let path: DropboxPath
        do { path = try parsePath(raw, allowRoot: true, arguments: arguments) } catch is LookupProblem {
            throw DropboxFailure.route(FilesError.wrap("path", LookupProblem.malformedPath.union))
        }
        let recursive = try arguments.bool("recursive", default: false)
        let includeDeleted = try arguments.bool("include_deleted", default: false)
        for flag in [
            "include_media_info", "include_has_explicit_shared_members", "include_mounted_folders",
            "include_non_downloadable_files",
        ] {
            _ = try arguments.bool(flag, default: false)
        }
        let limit = Int(try arguments.integer("limit", default: 2000, range: 1...2000) ?? 2000)
        let filter = try PropertyTemplates.filter(arguments)
        return try namespace.withState { state in
            do { try state.checkFolder(path.key) } catch let problem as LookupProblem {
                throw DropboxFailure.route(FilesError.wrap("path", problem.union))
            }
            var cursor = ListCursor(
                epoch: state.epoch, sequence: state.sequence, folder: path.key,
                recursive: recursive, includeDeleted: includeDeleted, limit: limit, offset: 0
            )
            cursor.propertyFilter = filter
            return cursor
        }
    }

    func listFolder(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.read")
        let arguments = try await rpcArguments(&request, route: "files/list_folder")
        let cursor = try listCursor(arguments)
        return Self.ok(namespace.withState { $0.listingPage(cursor) }.json)
    }

    func getLatestCursor(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.read")
        let arguments = try await rpcArguments(&request, route: "files/list_folder/get_latest_cursor")
        var cursor = try listCursor(arguments)
        cursor.offset = nil
        return Self.ok(["cursor": cursor.token])
    }

    /// Decodes a cursor argument: 400 when it is not one, 409 `reset` when it is stale.
    private func storedCursor(_ arguments: DropboxArguments) throws -> ListCursor {
        let token = try arguments.string("cursor")
        guard let cursor = ListCursor(token: token) else {
            throw arguments.fail("cursor", "Invalid cursor")
        }
        guard cursor.epoch == namespace.epoch else {
            throw DropboxFailure.route(FilesError.tag("reset"))
        }
        return cursor
    }

    func listFolderContinue(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.read")
        let arguments = try await rpcArguments(&request, route: "files/list_folder/continue")
        let cursor = try storedCursor(arguments)
        let page = try namespace.withState { state in
            do { try state.checkFolder(cursor.folder) } catch let problem as LookupProblem {
                throw DropboxFailure.route(FilesError.wrap("path", problem.union))
            }
            return cursor.offset == nil ? state.changesPage(cursor) : state.listingPage(cursor)
        }
        return Self.ok(page.json)
    }

    /// No `Authorization` header: the cursor is the credential (one sent anyway is ignored, as
    /// Dropbox ignores it on its no-auth routes). The answer carries
    /// ``MockDropboxServer/Options/longpollBackoff`` when it is set.
    func longpoll(_ request: inout Request) async throws -> Response {
        let arguments = try await rpcArguments(&request, route: "files/list_folder/longpoll")
        let cursor = try storedCursor(arguments)
        let timeout = try arguments.integer("timeout", default: 30, range: 30...480) ?? 30
        let deadline = ContinuousClock.now + min(.seconds(timeout), options.maxLongpollWait)
        var changes = false
        // A held request lets go when the server shuts down, so that the shutdown never waits
        // for the rest of the hold.
        while ContinuousClock.now < deadline, !ServerLifetime.isStopping {
            if namespace.epoch != cursor.epoch { throw DropboxFailure.route(FilesError.tag("reset")) }
            if cursor.offset != nil || namespace.withState({ $0.hasChanges(after: cursor) }) {
                changes = true
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        var answer: [String: Any] = ["changes": changes]
        if let backoff = options.longpollBackoff { answer["backoff"] = backoff }
        return Self.ok(answer)
    }
}
