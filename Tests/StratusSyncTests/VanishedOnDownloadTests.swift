import Foundation
import Stratus
import StratusAdapterKit
import Synchronization
import Testing

@testable import StratusSync

/// A document the feed or a listing names with a new version, but whose download then finds
/// nothing, is a vanished document like one the feed reports gone: the mass-deletion guard
/// counts it before anything is applied (issue 37: a server that listed 10 of 11 documents with
/// a new revision and answered 404 to their downloads made one sync delete 10 of 11 records).
@Suite struct VanishedOnDownloadTests {
    /// A service whose next change page names the chosen documents with a new version, after
    /// removing them from the remote: the folder emptied between the feed and the downloads.
    final class EmptyingService: ForwardingService {
        let base: any Service
        private let doomed = Mutex<[RemotePath]>([])

        init(_ base: any Service) { self.base = base }

        /// Empties these documents when the next change page is read, and names them in it.
        func emptyOnNextPage(_ paths: [RemotePath]) { doomed.withLock { $0 = paths } }

        func changes(since token: ChangeToken) async throws -> ChangePage {
            try await willForward(.changes(since: token))
            let paths = doomed.withLock { paths in
                defer { paths = [] }
                return paths
            }
            var page = try await base.changes(since: token)
            for path in paths {
                let file = try await base.metadata(of: path)
                try await base.delete(path)
                var renamed = file
                renamed.version = VersionID(rawValue: "\(file.version.rawValue)-newer")
                page.changes.append(.upserted(renamed))
            }
            return page
        }
    }

    /// Device A saves 11 records and syncs; device B, behind an ``EmptyingService``, pulls them.
    static func elevenRecordsOnTwoDevices(_ harness: SyncHarness) async throws -> (SyncStore, EmptyingService) {
        let emptying = EmptyingService(harness.remote)
        let a = try harness.device("a")
        let b = try harness.device("b", service: emptying)
        for index in 0..<11 {
            try a.save(["level": index], as: try RecordKey(type: "save", id: "slot-\(index)"))
        }
        try await a.sync()
        try await b.sync()
        return (b, emptying)
    }

    @Test func documentsThatVanishOnDownloadStopThePullLikeTheFeedsDeletions() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let (b, emptying) = try await Self.elevenRecordsOnTwoDevices(harness)
        #expect(try b.records(ofType: "save").count == 11)

        emptying.emptyOnNextPage(try (1..<11).map { try harness.documentPath("save", "slot-\($0)") })
        let error = await expectSyncError(.massDeletion) { try await b.sync() }
        #expect(error?.recordCount == 10)
        #expect(try b.records(ofType: "save").count == 11, "nothing is removed before the app accepts")
        // The vanished documents stay pending: the next sync stops again, though the feed has
        // moved on and names them no more.
        await expectSyncError(.massDeletion) { try await b.sync() }
        #expect(try b.records(ofType: "save").count == 11)

        try b.acceptRemoteDeletions()
        #expect(try await b.sync().failures.isEmpty)
        #expect(try b.records(ofType: "save").map(\.key.id) == ["slot-0"])
        #expect(try b.archived(RecordKey(type: "save", id: "slot-3")).count == 1)
    }

    @Test func aFewDocumentsThatVanishOnDownloadAreRemovedAndArchived() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let (b, emptying) = try await Self.elevenRecordsOnTwoDevices(harness)
        emptying.emptyOnNextPage([try harness.documentPath("save", "slot-4")])
        #expect(try await b.sync().failures.isEmpty)
        #expect(try b.records(ofType: "save").count == 10)
        #expect(try b.archived(RecordKey(type: "save", id: "slot-4")).count == 1)
    }

    /// A service whose next downloads of a document answer 404, while it is there.
    final class Flaky404Service: ForwardingService {
        let base: any Service
        private let missing = Mutex<[RemotePath: Int]>([:])

        init(_ base: any Service) { self.base = base }

        /// The next `count` downloads of a document answer 404.
        func answer404(to path: RemotePath, times count: Int) { missing.withLock { $0[path] = count } }

        func willForward(_ call: ServiceCall) async throws {
            guard case .download(let path, _) = call else { return }
            let fail = missing.withLock { missing -> Bool in
                guard let left = missing[path], left > 0 else { return false }
                missing[path] = left - 1
                return true
            }
            if fail { throw ServiceError(.notFound, "A 404 for a moment (test).") }
        }
    }

    @Test func a404OnADocumentStillThereRemovesNothing() async throws {
        let harness = try SyncHarness()
        defer { harness.remove() }
        let flaky = Flaky404Service(harness.remote)
        let a = try harness.device("a")
        let b = try harness.device("b", service: flaky)
        let key = try RecordKey(type: "save", id: "slot-1")
        try a.save(["level": 1], as: key)
        try await a.sync()
        try await b.sync()
        try a.save(["level": 2], as: key)
        try await a.sync()

        // Two 404s: the download and any second look at the same document in the same sync.
        flaky.answer404(to: try harness.documentPath("save", "slot-1"), times: 2)
        for _ in 0..<2 {
            let report = try await b.sync()
            #expect(report.failures.map(\.key) == [key], "a failure that may pass, not a removal")
            #expect(try b.record(key) != nil)
            #expect(try b.archived(key).isEmpty)
        }
        #expect(try await b.sync().failures.isEmpty)
        #expect(try b.record(key)?.value == .object(["level": .integer(2)]))
    }
}
