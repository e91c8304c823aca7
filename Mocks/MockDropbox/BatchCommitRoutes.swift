import Foundation
import Hummingbird
import StratusDigest
import Synchronization

/// `upload_session/finish_batch_v2`, `upload_session/finish_batch` and
/// `upload_session/finish_batch/check`: many upload sessions committed as one write.
///
/// Each entry is an `UploadSessionFinishArg` committed as `upload_session/finish` would with an
/// empty body, except that its session must already be closed (`lookup_failed/not_closed`
/// otherwise). Arguments are checked for every entry before anything is committed (a malformed
/// one answers 400 for the whole batch); after that, an entry that fails is a `failure` in its
/// place and the others go on. The whole batch is one write (``WriteContention/batch(entries:_:)``):
/// refused with 429 when another batch is in flight.
extension MockDropboxServer {
    /// The batch-commit routes, by name under `/2/files/`.
    var batchCommitRoutes: [(String, @Sendable (inout Request) async throws -> Response)] {
        [
            ("upload_session/finish_batch_v2", { try await self.finishBatch(&$0) }),
            ("upload_session/finish_batch", { try await self.launchFinishBatch(&$0) }),
            ("upload_session/finish_batch/check", { try await self.checkFinishBatch(&$0) }),
        ]
    }

    /// The most entries one batch may hold (`UploadSessionFinishBatchArg.entries`, `max_items`).
    static let maxBatchEntries = 1000

    /// `upload_session/finish_batch_v2`: commits every entry, then answers an
    /// `UploadSessionFinishBatchResult` with one entry per argument entry, in order.
    func finishBatch(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let entries = try await batchEntries(&request, route: "files/upload_session/finish_batch_v2")
        let outcomes = try await writes.batch(entries: entries.count) { commitBatch(entries) }
        return Self.ok(["entries": outcomes.map(\.union)])
    }

    /// `upload_session/finish_batch` (deprecated): answers an `async_job_id` at once and commits
    /// in the background; ``checkFinishBatch(_:)`` tells when it is done.
    func launchFinishBatch(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let entries = try await batchEntries(&request, route: "files/upload_session/finish_batch")
        let job = asyncJobs.start(pendingChecks: options.pendingJobChecks)
        do {
            try writes.launchBatch(entries: entries.count) { [self] in
                let outcomes = commitBatch(entries)
                asyncJobs.complete(
                    job, answer: DropboxJSON.text([".tag": "complete", "entries": outcomes.map(\.union)]))
            }
        } catch {
            asyncJobs.forget(job)
            throw error
        }
        return Self.ok([".tag": "async_job_id", "async_job_id": job])
    }

    /// `upload_session/finish_batch/check`: `in_progress`, or `complete` with the entries;
    /// 409 `PollError.invalid_async_job_id` for an id no launch gave.
    func checkFinishBatch(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.content.write")
        let arguments = try await rpcArguments(&request, route: "files/upload_session/finish_batch/check")
        let id = try arguments.string("async_job_id")
        guard !id.isEmpty else { throw arguments.fail("async_job_id", "'' must be at least 1 characters") }
        switch asyncJobs.check(id) {
        case nil: throw DropboxFailure.route(FilesError.tag("invalid_async_job_id"))
        case .inProgress: return Self.ok([".tag": "in_progress"])
        case .done(let answer): return .json(text: answer)
        }
    }

    /// Reads and checks every entry of an `UploadSessionFinishBatchArg`.
    /// - Throws: 400 for a malformed argument or more than ``maxBatchEntries`` entries.
    private func batchEntries(_ request: inout Request, route: String) async throws -> [BatchEntry] {
        let arguments = try await rpcArguments(&request, route: route)
        return try arguments.objects("entries", maxItems: Self.maxBatchEntries).map { entry in
            let cursor = try entry.nested("cursor")
            let id = try cursor.string("session_id")
            guard let offset = try cursor.integer("offset", default: nil, range: 0...Int64.max) else {
                throw cursor.fail("offset", "missing required field")
            }
            let expected = try expectedHash(entry)
            let commit: CommitRequest
            do { commit = try commitInfo(try entry.nested("commit")) } catch LookupProblem.malformedPath {
                return .refused(.write(.malformedPath))
            } catch let problem as PropertyTemplates.Problem {
                return .refused(.properties(problem))
            }
            // An entry sends no bytes: a content hash must be the empty content's.
            if let expected, expected != Self.emptyContentHash { return .refused(.contentHashMismatch) }
            return .commit(session: id, offset: offset, commit)
        }
    }

    /// The `content_hash` of no bytes.
    private static let emptyContentHash = DropboxContentHash().finalizeHex()

    /// Commits the entries of a batch one after the other; the caller holds the batch's write.
    private func commitBatch(_ entries: [BatchEntry]) -> [BatchOutcome] {
        entries.map { entry in
            switch entry {
            case .refused(let problem):
                return .failure(problem)
            case .commit(let id, let offset, let commit):
                do {
                    let claim = try sessions.claim(id, offset: offset, finishing: true)
                    sessions.release(id, added: 0, close: claim.wasClosed)
                    guard claim.wasClosed else { throw FinishProblem.lookup(.notClosed) }
                    let (node, revision) = try commitClosedSession(id, as: commit)
                    return .success(node, revision)
                } catch let problem as UploadSessions.Problem {
                    return .failure(.lookup(problem))
                } catch let problem as FinishProblem {
                    return .failure(problem)
                } catch {
                    return .failure(.other)
                }
            }
        }
    }
}

/// One entry of a batch, read and checked.
private enum BatchEntry: Sendable {
    /// Commit a session at an offset.
    case commit(session: String, offset: Int64, CommitRequest)
    /// Refused already, by its arguments.
    case refused(FinishProblem)
}

/// What became of one entry: an `UploadSessionFinishBatchResultEntry`.
private enum BatchOutcome: Sendable {
    /// Committed: the node and its new current revision.
    case success(NamespaceNode, FileRevision)
    /// Not committed, for this reason.
    case failure(FinishProblem)

    /// `{".tag": "success", ...FileMetadata}` or `{".tag": "failure", "failure": ...}`.
    var union: [String: Any] {
        switch self {
        case .success(let node, let revision):
            var metadata = node.metadata(of: revision)
            metadata[".tag"] = "success"
            return metadata
        case .failure(let problem):
            return ["failure": problem.union, ".tag": "failure"]
        }
    }
}
