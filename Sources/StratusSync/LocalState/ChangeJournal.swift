import Foundation
import GRDB
import Synchronization

/// The changes of committed transactions, as ``SyncStore/changes()`` hands them out.
///
/// Every transaction that changes records adds its changes to the `recordChange` table
/// (``SyncStore/commit(durably:_:)``); a GRDB region observation of that table wakes the open
/// sequences after each commit, and each reads the table from its own position. Nothing is
/// sent by hand, a rolled-back transaction announces nothing, and a slow reader misses nothing:
/// rows stay until every open sequence has read them (so a sequence that is never read keeps
/// them; drop it to let them go).
final class ChangeJournal: Sendable {
    private struct Readers {
        /// Each open sequence's position; `nil` while it is being opened (nothing may go then).
        var positions: [UUID: Int64?] = [:]
        /// Counts ``finish()`` calls: a sequence opened before the latest one ends.
        var generation = 0
    }

    private let state: LocalState
    private let readers = Mutex(Readers())
    private let committed: Broadcaster<Void>
    private let observation: AnyDatabaseCancellable

    /// How many rows a sequence reads at once.
    static let pageSize = 256

    /// Starts observing the journal of a store's state.
    init(state: LocalState) {
        self.state = state
        let committed = Broadcaster<Void>(buffer: 1)
        self.committed = committed
        observation = DatabaseRegionObservation(tracking: Table("recordChange")).start(
            in: state.queue, onError: { _ in }, onChange: { _ in committed.send([()]) })
    }

    /// The position up to which every open sequence has read: what a transaction that adds
    /// changes may remove. `nil` when no sequence is open; `Int64.min` while one is opening.
    var readPosition: Int64? {
        readers.withLock { readers in
            guard !readers.positions.isEmpty else { return nil }
            return readers.positions.values.map { $0 ?? .min }.min()
        }
    }

    /// A new sequence of the changes committed from now on.
    func stream() -> AsyncStream<RecordChange> {
        let reader = Reader(journal: self)
        return AsyncStream(unfolding: { await reader.next() })
    }

    /// Ends every open sequence; later ``stream()`` calls make new ones.
    func finish() {
        readers.withLock { $0.generation += 1 }
        committed.finish()
    }

    /// One open sequence: its position in the journal and the changes it read ahead.
    private actor Reader {
        let journal: ChangeJournal
        let id = UUID()
        let generation: Int
        var position: Int64
        var buffered: [RecordChange] = []
        var wakeups: AsyncStream<Void>.Iterator

        /// Opens a sequence at the journal's end: what commits from now on is in it.
        init(journal: ChangeJournal) {
            self.journal = journal
            // Woken by every commit from now on, and nothing removed until the position is
            // known; the position is read after both, so no commit falls in between.
            wakeups = journal.committed.stream().makeAsyncIterator()
            let id = self.id
            generation = journal.readers.withLock { readers in
                readers.positions[id] = .some(nil)
                return readers.generation
            }
            let start = (try? journal.state.read { db in try db.lastChangeSequence() }) ?? 0
            position = start
            journal.readers.withLock { readers in
                if readers.positions[id] != nil { readers.positions[id] = start }
            }
        }

        deinit {
            journal.readers.withLock { _ = $0.positions.removeValue(forKey: id) }
        }

        func next() async -> RecordChange? {
            while true {
                guard journal.readers.withLock({ $0.generation == generation }) else { return nil }
                if !buffered.isEmpty { return buffered.removeFirst() }
                guard let page = await read() else { return nil }
                if !page.isEmpty {
                    buffered = page
                    continue
                }
                var iterator = wakeups
                let woken = await iterator.next(isolation: self)
                wakeups = iterator
                guard woken != nil else { return nil }
            }
        }

        /// Reads the next page from the journal; `nil` when the state cannot be read.
        private func read() async -> [RecordChange]? {
            do {
                let start = position
                let (changes, last) = try await journal.state.read { db in
                    try db.changes(after: start, limit: ChangeJournal.pageSize)
                }
                position = last
                journal.readers.withLock { readers in
                    if readers.positions[id] != nil { readers.positions[id] = last }
                }
                return changes
            } catch {
                return nil
            }
        }
    }
}
