import Foundation
import Stratus

extension ContractSuite {
    /// The change feed as a pure function of its token: a sync that fails between reading a page
    /// and saving the token after it (or whose process is killed there) reads the same token
    /// again, and must be told the same changes, deletions included. An adapter that forgets
    /// what it needs to name a change while reading it reports nothing the second time, and the
    /// deletion is lost for good. An adapter that keeps what it needs in a local folder (Drive's
    /// and OneDrive's state folder) gets that folder from the factory, derived from the context
    /// (inside ``ContractContext/scratchDirectory``), so the second instance finds it.
    static var reReadChecks: [ContractCheck.Definition] {
        [reReadByTheSameInstance, reReadByANewInstance]
    }

    private static let reReadByTheSameInstance = ContractCheck.Definition(
        "change feed: re-reading a token gives the same changes, deletions included"
    ) { run in
        let (token, expected) = try await prepareReRead(run)
        let first = try await run.allChanges(since: token).changes
        try expectReported(expected, in: first, "the first read of the token")
        let second = try await run.allChanges(since: token).changes
        try expect(
            second == first,
            "the second read of the same token gave other changes than the first: first \(describe(first)), second \(describe(second))"
        )
    }

    private static let reReadByANewInstance = ContractCheck.Definition(
        "change feed: re-reading a token in a new instance (killed before saving) gives the same changes"
    ) { run in
        let (token, expected) = try await prepareReRead(run)
        let first = try await run.allChanges(since: token).changes
        try expectReported(expected, in: first, "the first read of the token")
        let reopened: any Service
        do {
            reopened = try await run.reopen()
        } catch {
            throw failure("the factory could not make a second service for the same context: \(error)")
        }
        let again = try await run.allChanges(since: token, from: reopened).changes
        try expect(
            again == first,
            "a new instance reading the token the first instance had read gave other changes: first \(describe(first)), new instance \(describe(again))"
        )
    }

    /// What a re-read check expects: the paths deleted after the token and the one rewritten.
    private struct ReReadExpectation {
        let deleted: [RemotePath]
        let rewritten: RemotePath
    }

    /// Writes six files, takes a token, deletes three and rewrites one.
    private static func prepareReRead(_ run: ContractRun) async throws -> (ChangeToken, ReReadExpectation) {
        try run.requireChangeFeed()
        var paths: [RemotePath] = []
        for index in 0..<6 {
            let path = try run.path(index < 3 ? "reread/doomed-\(index).txt" : "reread/sub/kept-\(index).txt")
            _ = try await run.upload(.bytes(Data("record \(index)".utf8)), to: path)
            paths.append(path)
        }
        let token = try await run.latestChangeToken()
        let deleted = Array(paths.prefix(3))
        for path in deleted {
            do {
                try await run.service.delete(path)
            } catch {
                throw failure("delete(\(path)) threw \(error)")
            }
        }
        let rewritten = paths[4]
        _ = try await run.upload(.bytes(Data("record 4, rewritten".utf8)), to: rewritten)
        return (token, ReReadExpectation(deleted: deleted, rewritten: rewritten))
    }

    /// Fails unless every deletion is reported (last, for its path) and the rewrite is reported.
    private static func expectReported(_ expected: ReReadExpectation, in changes: [Change], _ what: String) throws {
        for path in expected.deleted {
            try expect(
                changes.last(where: { $0.path == path }) == .deleted(path),
                "\(what) did not end with the deletion of \(path), which existed when the token was taken and was deleted after: \(describe(changes))"
            )
        }
        let rewrite = changes.last { $0.path == expected.rewritten }
        guard case .upserted = rewrite else {
            throw failure("\(what) did not report the rewrite of \(expected.rewritten): \(describe(changes))")
        }
    }
}
