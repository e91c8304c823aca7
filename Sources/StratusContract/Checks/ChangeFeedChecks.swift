import Foundation
import Stratus

extension ContractSuite {
    /// The change feed: the promise of its kind, order, paging, tokens that survive a restart,
    /// refused tokens.
    ///
    /// A ``ServiceCapabilities/ChangeFeed/native`` feed promises every change, so a file created
    /// and deleted between two polls must appear; an ``ServiceCapabilities/ChangeFeed/emulated``
    /// one promises the net change between polls, so such a file may be missing, but nothing
    /// reported may contradict the state now.
    static var changeFeedChecks: [ContractCheck.Definition] {
        [quietFeed, uploadThenDelete, createdAndDeleted, paging, savedToken, garbageToken]
    }

    private static let quietFeed = ContractCheck.Definition("change feed: nothing after the latest token") { run in
        try run.requireChangeFeed()
        _ = try await run.upload(.bytes(Data("before".utf8)), to: try run.path("before.txt"))
        let token = try await run.latestChangeToken()
        let page = try await run.service.changes(since: token)
        try expectEqual(page.changes, [], "changes since the latest token when nothing happened")
        try expectEqual(page.hasMore, false, "hasMore when nothing happened")
    }

    private static let uploadThenDelete = ContractCheck.Definition(
        "change feed: an upload and a delete are reported in order"
    ) { run in
        try run.requireChangeFeed()
        let path = try run.path("feed/doomed.txt")
        let keeper = try run.path("feed/keeper.txt")
        let token = try await run.latestChangeToken()
        let uploaded = try await run.upload(.bytes(Data("short-lived".utf8)), to: path)
        _ = try await run.upload(.bytes(Data("stays".utf8)), to: keeper)
        do {
            try await run.service.delete(path)
        } catch {
            throw failure("delete(\(path)) threw \(error)")
        }
        let (changes, _, _) = try await run.allChanges(since: token)
        if run.capabilities.changeFeed == .emulated {
            // The net change: the keeper is there, the doomed file is gone or never seen.
            try expectNetChange(
                changes, deleted: path, "after the upload and delete of \(path) (capabilities.changeFeed is .emulated)")
            try expect(
                lastChange(of: keeper, in: changes).map(isUpsert) == true,
                "the change feed did not report \(keeper), which exists now; it reported \(describe(changes))")
        } else {
            try expectEveryChange(changes, path: path, version: uploaded.version)
        }
        let listed = try await run.service.list(.root)
        try expectEqual(listed.map(\.path.string), ["feed/keeper.txt"], "paths listed after the delete")
        try await run.expectError(.notFound, "metadata(of:) after the delete") {
            try await run.service.metadata(of: path)
        }
    }

    /// Fails unless a native feed reported a file's upload and then its deletion.
    private static func expectEveryChange(_ changes: [Change], path: RemotePath, version: VersionID) throws {
        let upsert = changes.lastIndex { change in
            if case .upserted(let file) = change { return file.path == path && file.version == version }
            return false
        }
        let deletion = changes.lastIndex { $0 == .deleted(path) }
        guard let upsert else {
            throw failure(
                "the change feed did not report the upload of \(path) at version \(version); capabilities.changeFeed is .native, which promises every change; it reported \(describe(changes))"
            )
        }
        guard let deletion else {
            throw failure(
                "the change feed did not report the deletion of \(path); capabilities.changeFeed is .native, which promises every change; it reported \(describe(changes))"
            )
        }
        try expect(
            upsert < deletion,
            "the change feed reported the deletion of \(path) before its upload: \(describe(changes))")
    }

    /// Fails when the feed's last word on a deleted file is not its deletion (an emulated feed
    /// may also say nothing about it).
    private static func expectNetChange(_ changes: [Change], deleted path: RemotePath, _ what: String) throws {
        if let last = lastChange(of: path, in: changes) {
            try expect(
                last == .deleted(path),
                "\(what), the change feed's last change for \(path) is not its deletion: \(describe(changes))")
        }
    }

    private static let createdAndDeleted = ContractCheck.Definition(
        "change feed: a file created and deleted between two polls, as the feed's kind promises"
    ) { run in
        try run.requireChangeFeed()
        let fleeting = try run.path("between/fleeting.txt")
        let twice = try run.path("between/twice.txt")
        let token = try await run.latestChangeToken()
        _ = try await run.upload(.bytes(Data("here and gone".utf8)), to: fleeting)
        do {
            try await run.service.delete(fleeting)
        } catch {
            throw failure("delete(\(fleeting)) threw \(error)")
        }
        _ = try await run.upload(.bytes(Data("first".utf8)), to: twice)
        let latest = try await run.upload(.bytes(Data("second, the one that stays".utf8)), to: twice)
        let (changes, _, _) = try await run.allChanges(since: token)

        switch run.capabilities.changeFeed {
        case .native:
            // Every change: the fleeting file must appear, its deletion last.
            guard let last = lastChange(of: fleeting, in: changes) else {
                throw failure(
                    "the change feed never mentions \(fleeting), created and deleted between two polls; capabilities.changeFeed is .native, which promises every change (declare .emulated for a feed that reports the net change); it reported \(describe(changes))"
                )
            }
            try expect(
                last == .deleted(fleeting),
                "the change feed's last change for \(fleeting), created and deleted between two polls, is not its deletion: \(describe(changes))"
            )
        default:
            try expectNetChange(
                changes, deleted: fleeting,
                "for a file created and deleted between two polls (capabilities.changeFeed is .emulated)")
        }
        guard let lastOfTwice = lastChange(of: twice, in: changes) else {
            throw failure(
                "the change feed never mentions \(twice), written twice between two polls; it reported \(describe(changes))"
            )
        }
        guard case .upserted(let file) = lastOfTwice, file.version == latest.version else {
            throw failure(
                "the change feed's last change for \(twice) is not its second write (version \(latest.version)): \(describe(changes))"
            )
        }
    }

    /// The last change the feed reported for a path.
    private static func lastChange(of path: RemotePath, in changes: [Change]) -> Change? {
        changes.last { $0.path == path }
    }

    /// Whether a change is an upload.
    private static func isUpsert(_ change: Change) -> Bool {
        if case .upserted = change { return true }
        return false
    }

    private static let paging = ContractCheck.Definition("change feed: pages with hasMore until every change is seen") {
        run in
        try run.requireChangeFeed()
        let count = 3 * run.context.changePageSize + 1
        let token = try await run.latestChangeToken()
        var written: [RemotePath] = []
        for index in 0..<count {
            let path = try run.path("paged/file-\(index).txt")
            _ = try await run.upload(.bytes(Data("file \(index)".utf8)), to: path)
            written.append(path)
        }
        let (changes, _, pages) = try await run.allChanges(since: token)
        try expect(
            pages > 1,
            "\(count) changes came in one page, so paging was not exercised; the factory should give the service ContractContext.changePageSize (\(run.context.changePageSize)) as its page size"
        )
        let reported = changes.compactMap { change -> RemotePath? in
            if case .upserted(let file) = change { return file.path }
            return nil
        }
        for path in written where !reported.contains(path) {
            throw failure("the change feed, read over \(pages) pages, never reported \(path)")
        }
        let firstSeen = written.compactMap { reported.firstIndex(of: $0) }
        try expect(
            firstSeen == firstSeen.sorted(),
            "the change feed reported the files out of the order they were written: \(reported.map(\.name))")
    }

    private static let savedToken = ContractCheck.Definition(
        "change feed: a saved token works in a new service instance"
    ) { run in
        try run.requireChangeFeed()
        let saved = try JSONEncoder().encode(try await run.latestChangeToken())
        let first = try run.path("restart/first.txt")
        let second = try run.path("restart/second.txt")
        _ = try await run.upload(.bytes(Data("1".utf8)), to: first)
        _ = try await run.upload(.bytes(Data("2".utf8)), to: second)

        let reopened: any Service
        do {
            reopened = try await run.reopen()
        } catch {
            throw failure("the factory could not make a second service for the same context: \(error)")
        }
        let token: ChangeToken
        do {
            token = try JSONDecoder().decode(ChangeToken.self, from: saved)
        } catch {
            throw failure(
                "a change token encoded as JSON (\(String(decoding: saved, as: UTF8.self))) could not be decoded: \(error)"
            )
        }
        let (changes, _, _) = try await run.allChanges(since: token, from: reopened)
        let reported = changes.map(\.path)
        guard let firstIndex = reported.firstIndex(of: first), let secondIndex = reported.lastIndex(of: second) else {
            throw failure(
                "changes since the saved token, read by a new instance, are \(describe(changes)); expected both uploads"
            )
        }
        try expect(firstIndex < secondIndex, "the new instance reported \(second) before \(first)")
        try expect(
            !reported.contains { !$0.string.hasPrefix("restart/") },
            "the new instance reported changes from before the token: \(describe(changes))")
    }

    private static let garbageToken = ContractCheck.Definition("change feed: a garbage token is refused") { run in
        try run.requireChangeFeed()
        for raw in ["not a change token", "", "\u{1F4A9}\u{0}\u{FFFF}"] {
            try await run.expectError(.invalidChangeToken, "changes(since: \(raw.debugDescription))") {
                try await run.service.changes(since: ChangeToken(rawValue: raw))
            }
        }
    }

    /// A short description of changes for messages.
    static func describe(_ changes: [Change]) -> String {
        let shown = changes.prefix(20).map { change in
            switch change {
            case .upserted(let file): "upserted \(file.path) @\(file.version)"
            case .deleted(let path): "deleted \(path)"
            }
        }
        return "[" + shown.joined(separator: ", ") + (changes.count > 20 ? ", … \(changes.count - 20) more" : "") + "]"
    }
}
