import Foundation
import Hummingbird

/// `get_metadata`, `delete_v2`, `list_revisions` and `restore`.
extension MockDropboxServer {
    func getMetadata(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.read")
        let arguments = try await rpcArguments(&request, route: "files/get_metadata")
        let raw = try arguments.string("path")
        let includeDeleted = try arguments.bool("include_deleted", default: false)
        let filter = try PropertyTemplates.filter(arguments)
        for flag in ["include_media_info", "include_has_explicit_shared_members"] {
            _ = try arguments.bool(flag, default: false)
        }
        if includeDeleted, !raw.hasPrefix("id:"), !raw.hasPrefix("rev:"),
            let path = try? DropboxPath(parsing: raw, allowRoot: false),
            let node = namespace.withState({ $0.nodes[path.key] }), node.isDeleted
        {
            return Self.ok(node.metadata(tagged: true))
        }
        let found = try lookup(raw, arguments: arguments, errorTag: "path")
        if let revision = found.revision {
            var metadata = found.node.metadata(of: revision)
            metadata[".tag"] = "file"
            return Self.ok(Self.withPropertyGroups(metadata, revision: revision, filter: filter))
        }
        let metadata = found.node.metadata(tagged: true)
        return Self.ok(
            Self.withPropertyGroups(
                metadata, revision: found.node.kind == .file ? found.node.current : nil, filter: filter))
    }

    func delete(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try await rpcArguments(&request, route: "files/delete_v2")
        let raw = try arguments.string("path")
        let parentRev = try arguments.optionalString("parent_rev")
        if !raw.hasPrefix("id:") {
            do { _ = try parsePath(raw, allowRoot: false, arguments: arguments) } catch is LookupProblem {
                throw DropboxFailure.route(FilesError.wrap("path_lookup", LookupProblem.malformedPath.union))
            }
        }
        do {
            let node = try await writes.commit { try namespace.withState { try $0.delete(raw, parentRev: parentRev) } }
            return Self.ok(["metadata": node.metadata(tagged: true)])
        } catch let problem as DeleteProblem {
            switch problem {
            case .lookup(let lookup): throw DropboxFailure.route(FilesError.wrap("path_lookup", lookup.union))
            case .write(let write): throw DropboxFailure.route(FilesError.wrap("path_write", write.union))
            }
        }
    }

    func listRevisions(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.read")
        let arguments = try await rpcArguments(&request, route: "files/list_revisions")
        let raw = try arguments.string("path")
        let mode = try arguments.union("mode", default: "path").tag
        let limit = Int(try arguments.integer("limit", default: 10, range: 1...100) ?? 10)
        let beforeRev = try arguments.optionalString("before_rev")
        let node: NamespaceNode
        do {
            // In path mode an `id:` names the file's current path (PathOrId); a slash path is
            // checked like every other route's: 400 for a pattern mismatch, else malformed_path.
            let path =
                mode == "id" || raw.hasPrefix("id:") ? nil : try parsePath(raw, allowRoot: false, arguments: arguments)
            node = try namespace.withState { (state) throws(LookupProblem) -> NamespaceNode in
                if let path {
                    guard let node = state.nodes[path.key] else { throw .notFound }
                    return node
                }
                guard raw.hasPrefix("id:"), let key = state.pathOfID[raw], let node = state.nodes[key] else {
                    throw .notFound
                }
                return node
            }
        } catch let problem as LookupProblem {
            throw DropboxFailure.route(FilesError.wrap("path", problem.union))
        }
        guard node.kind == .file else {
            throw DropboxFailure.route(FilesError.wrap("path", LookupProblem.notFile.union))
        }
        var newestFirst = Array(node.revisions.reversed())
        if let beforeRev {
            guard let index = newestFirst.firstIndex(where: { $0.rev == beforeRev }) else {
                throw DropboxFailure.route(FilesError.tag("invalid_before_rev"))
            }
            newestFirst = Array(newestFirst[(index + 1)...])
        }
        var result: [String: Any] = [
            "is_deleted": node.isDeleted,
            "entries": newestFirst.prefix(limit).map { node.metadata(of: $0) },
            "has_more": newestFirst.count > limit,
        ]
        if node.isDeleted, let deletedAt = node.deletedAt {
            result["server_deleted"] = DropboxTimestamp.format(deletedAt)
        }
        return Self.ok(result)
    }

    func restore(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try await rpcArguments(&request, route: "files/restore")
        let raw = try arguments.string("path")
        let rev = try arguments.string("rev")
        guard rev.count >= 9, rev.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw arguments.fail("rev", "'\(rev)' did not match pattern '[0-9a-f]+'")
        }
        let path: DropboxPath
        do { path = try parsePath(raw, allowRoot: false, arguments: arguments) } catch is LookupProblem {
            throw DropboxFailure.route(FilesError.wrap("path_lookup", LookupProblem.malformedPath.union))
        }
        do {
            let (node, revision) = try await writes.commit {
                try namespace.withState { try $0.restore(path, rev: rev) }
            }
            return Self.ok(node.metadata(of: revision))
        } catch let problem as WriteProblem {
            throw DropboxFailure.route(FilesError.wrap("path_write", problem.union))
        } catch is LookupProblem {
            throw DropboxFailure.route(FilesError.tag("invalid_revision"))
        }
    }
}

extension Namespace.State {
    /// Makes an old revision current again, as a new revision with the same contents.
    mutating func restore(_ path: DropboxPath, rev: String) throws -> (NamespaceNode, FileRevision) {
        if let live = live(path), live.kind == .folder { throw WriteProblem.conflict("folder") }
        guard let key = pathOfRev[rev], key == path.key, var node = nodes[key],
            let old = node.revisions.first(where: { $0.rev == rev })
        else { throw LookupProblem.notFound }
        try makeAncestors(of: path)
        let revision = FileRevision(
            rev: newRev(), blob: old.blob, clientModified: old.clientModified, serverModified: DropboxTimestamp.now(),
            propertyGroups: old.propertyGroups
        )
        node.revisions.append(revision)
        node.isDeleted = false
        node.deletedAt = nil
        nodes[key] = node
        pathOfRev[revision.rev] = key
        record(key)
        return (node, revision)
    }
}
