import Foundation
import Hummingbird

/// `move_v2`, `copy_v2`, `create_folder_v2`, `delete_batch` and `delete_batch/check`.
extension MockDropboxServer {
    /// The relocation and folder routes, by name under `/2/files/`.
    var relocationRoutes: [(String, @Sendable (inout Request) async throws -> Response)] {
        [
            ("move_v2", { try await self.relocate(&$0, copy: false) }),
            ("copy_v2", { try await self.relocate(&$0, copy: true) }),
            ("create_folder_v2", { try await self.createFolder(&$0) }),
            ("delete_batch", { try await self.deleteBatch(&$0) }),
            ("delete_batch/check", { try await self.deleteBatchCheck(&$0) }),
        ]
    }

    /// `move_v2` and `copy_v2`: `RelocationArg` → `RelocationResult` (`{metadata: Metadata}`,
    /// tagged), `RelocationError` on 409. Scope `files.content.write`.
    ///
    /// `from_path` and `to_path` are paths or `id:`s (a pattern mismatch is a 400);
    /// `allow_shared_folder` and `allow_ownership_transfer` are checked as booleans and have no
    /// effect (the mock has no shared folders). A malformed source is
    /// `from_lookup/malformed_path`, a malformed destination `to/malformed_path`. See
    /// ``Namespace/State/relocate(from:to:copy:autorename:)`` for what a move and a copy do;
    /// unlike the note on `move:2` in the Stone spec (written when Dropbox refused them),
    /// case-only renames work, as they do against Dropbox today. Each is one write through
    /// ``WriteContention`` (a refusal is a 429 `too_many_write_operations` and changes nothing).
    func relocate(_ request: inout Request, copy: Bool) async throws -> Response {
        let route = copy ? "files/copy_v2" : "files/move_v2"
        try authorize(request, scope: "files.content.write")
        let arguments = try await rpcArguments(&request, route: route)
        let from = try arguments.string("from_path")
        let to = try arguments.string("to_path")
        let autorename = try arguments.bool("autorename", default: false)
        for flag in ["allow_shared_folder", "allow_ownership_transfer"] {
            _ = try arguments.bool(flag, default: false)
        }
        // Every 400 before any 409: both paths are checked against the pattern first.
        var malformed: RelocationProblem?
        for (field, raw) in [("from_path", from), ("to_path", to)] where !raw.hasPrefix("id:") {
            do { _ = try parsePath(raw, allowRoot: false, arguments: arguments, field: field) } catch is LookupProblem {
                malformed = malformed ?? (field == "from_path" ? .fromLookup(.malformedPath) : .to(.malformedPath))
            }
        }
        if let malformed { throw DropboxFailure.route(malformed.union) }
        do {
            let node = try await writes.commit {
                try namespace.withState { try $0.relocate(from: from, to: to, copy: copy, autorename: autorename) }
            }
            return Self.ok(["metadata": node.metadata(tagged: true)])
        } catch let problem as RelocationProblem {
            throw DropboxFailure.route(problem.union)
        }
    }

    /// `create_folder_v2`: `CreateFolderArg` (`path`, `autorename`) → `CreateFolderResult`
    /// (`{metadata: FolderMetadata}`, untagged), `CreateFolderError` (`path` with a
    /// `WriteError`) on 409: `conflict/folder` or `conflict/file` when something is there
    /// (unless `autorename`), `conflict/file_ancestor`, `malformed_path`. Missing ancestors are
    /// created. One write through ``WriteContention``. Scope `files.content.write`.
    func createFolder(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try await rpcArguments(&request, route: "files/create_folder_v2")
        let raw = try arguments.string("path")
        let autorename = try arguments.bool("autorename", default: false)
        let path: DropboxPath
        do { path = try parsePath(raw, allowRoot: false, arguments: arguments) } catch is LookupProblem {
            throw DropboxFailure.route(FilesError.wrap("path", WriteProblem.malformedPath.union))
        }
        do {
            let node = try await writes.commit {
                try namespace.withState { try $0.createFolder(path, autorename: autorename) }
            }
            return Self.ok(["metadata": node.metadata(tagged: false)])
        } catch let problem as WriteProblem {
            throw DropboxFailure.route(FilesError.wrap("path", problem.union))
        }
    }

    /// `delete_batch`: `DeleteBatchArg` (`entries`, up to 1000 `DeleteArg`s) →
    /// `DeleteBatchLaunch`, always `async_job_id` (Dropbox runs the route asynchronously).
    /// Scope `files.content.write`.
    ///
    /// A badly shaped entry (no `path`, a path or `parent_rev` not matching its pattern) fails
    /// the whole call with a 400; the entries are then deleted in order as one batch write,
    /// each as `delete_v2` would, one's failure (such as `path_lookup/not_found`, or
    /// `path_lookup/malformed_path` for a path that matches the pattern but is not usable)
    /// leaving the others to go ahead. The answer is kept for `delete_batch/check`. A batch the
    /// namespace's ``WriteContention`` refuses is a 429 `too_many_write_operations` and launches
    /// no job.
    func deleteBatch(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let route = "files/delete_batch"
        let arguments = try await rpcArguments(&request, route: route)
        var items: [DeleteBatchItem] = []
        for entry in try arguments.objects("entries", maxItems: 1000) {
            let path = try entry.string("path")
            let parentRev = try entry.optionalString("parent_rev")
            if let parentRev, parentRev.count < 9 || !parentRev.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) {
                throw entry.fail("parent_rev", "'\(parentRev)' did not match pattern '[0-9a-f]+'")
            }
            var item = DeleteBatchItem(path: path, parentRev: parentRev)
            if !path.hasPrefix("id:") {
                do { _ = try parsePath(path, allowRoot: false, arguments: entry) } catch is LookupProblem {
                    item.isMalformed = true
                }
            }
            items.append(item)
        }
        let outcomes = try await writes.batch(entries: items.count) {
            namespace.withState { $0.deleteEach(items) }
        }
        let status: [String: Any] = [".tag": "complete", "entries": outcomes.map(Self.resultEntry)]
        let id = asyncJobs.launch(answer: DropboxJSON.text(status), pendingChecks: options.pendingJobChecks)
        return Self.ok([".tag": "async_job_id", "async_job_id": id])
    }

    /// `delete_batch/check`: `PollArg` (`async_job_id`) → `DeleteBatchJobStatus`:
    /// `in_progress` for the first ``Options/pendingJobChecks`` checks, then `complete` with
    /// one `DeleteBatchResultEntry` per entry, in order (`success` with the `metadata` the
    /// entry had before it went, or `failure` with a `DeleteError`). An id the mock does not
    /// know is `PollError.invalid_async_job_id` on 409. Scope `files.content.write`.
    func deleteBatchCheck(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try await rpcArguments(&request, route: "files/delete_batch/check")
        let id = try arguments.string("async_job_id")
        guard !id.isEmpty else { throw arguments.fail("async_job_id", "'' must be at least 1 characters, got 0") }
        switch asyncJobs.check(id) {
        case nil: throw DropboxFailure.route(FilesError.tag("invalid_async_job_id"))
        case .inProgress: return Self.ok([".tag": "in_progress"])
        case .done(let answer): return .json(text: answer)
        }
    }

    /// A `DeleteBatchResultEntry`: `success` (`DeleteBatchResultData`, inlined) or `failure`
    /// (a `DeleteError`, nested).
    private static func resultEntry(_ outcome: DeleteOutcome) -> [String: Any] {
        switch outcome {
        case .deleted(let node):
            return [".tag": "success", "metadata": node.metadata(tagged: true)]
        case .failed(.lookup(let problem)):
            return FilesError.wrap("failure", FilesError.wrap("path_lookup", problem.union))
        case .failed(.write(let problem)):
            return FilesError.wrap("failure", FilesError.wrap("path_write", problem.union))
        }
    }
}
