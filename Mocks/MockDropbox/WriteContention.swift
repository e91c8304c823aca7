import Foundation
import Synchronization

/// Dropbox's write serialisation in a namespace, as the mock models it.
///
/// Dropbox serialises the writes in one namespace: a commit (an upload's, a session's finish, a
/// delete, a move, a restore) holds the namespace's write lock while it runs, a few overlapping
/// ones get through, and past that the call is refused at once with HTTP 429 and an
/// `auth.RateLimitError` whose reason is `too_many_write_operations`; the client waits the
/// `Retry-After` and sends it again. A batch commit (`upload_session/finish_batch_v2`,
/// `delete_batch`) takes the lock once for all of its entries, which is why Dropbox recommends
/// batches for many files, and batches run one at a time: a second batch while one is in flight
/// is refused the same way.
///
/// The mock gives each write a slot for a modelled commit time (``Settings/commitTime``, or
/// ``Settings/batchTime`` plus ``Settings/batchTimePerEntry`` per entry for a batch). A write
/// that finds ``Settings/maximumConcurrentWrites`` slots taken, or a batch that finds another
/// batch in flight, is refused without running. A client that commits one file at a time never
/// meets a refusal; one that commits many at once meets them as it would against Dropbox.
///
/// Contention is on by default; set ``MockDropboxServer/Options/writeContention`` to `nil` (or
/// pass `--no-write-contention` to `stratus-mock dropbox`) to turn it off.
public final class WriteContention: Sendable {
    /// How writes contend.
    public struct Settings: Sendable {
        /// How many writes may be in flight at once in the namespace; one more is refused.
        /// Default 2: Dropbox documents no number, and 2 lets a client that overlaps a commit
        /// with the next one's start through, while a client that commits many files at once
        /// (what Dropbox's performance guide warns against) is refused soon.
        public var maximumConcurrentWrites: Int
        /// How long a single commit holds its slot. Default 2 ms: long enough that commits sent
        /// together really overlap in the mock, short enough that a suite committing thousands
        /// of files one at a time loses seconds at most.
        public var commitTime: Duration
        /// How long a batch commit holds its slot before its entries count. Default 10 ms.
        public var batchTime: Duration
        /// How much longer a batch holds its slot for each entry. Default 0.1 ms, so a full
        /// batch of 1,000 entries holds it for 110 ms: far less than 1,000 single commits, as
        /// a batch takes the lock once.
        public var batchTimePerEntry: Duration
        /// The `retry_after` (seconds) and `Retry-After` header of a refusal. Default 1, the
        /// default of `auth.RateLimitError.retry_after`.
        public var retryAfterSeconds: Int
        /// Awaited by every write while it holds its slot, after the modelled time and before
        /// the write itself; `nil` (the default) for none. A test can keep writes in flight
        /// until it chooses, to meet a refusal without depending on timing.
        public var holding: (@Sendable (Write) async -> Void)?

        /// Creates settings; the defaults model Dropbox as described on each property.
        /// - Parameters:
        ///   - maximumConcurrentWrites: How many writes may be in flight at once (at least 1).
        ///   - commitTime: How long a single commit holds its slot.
        ///   - batchTime: How long a batch holds its slot, before its entries count.
        ///   - batchTimePerEntry: How much longer a batch holds its slot per entry.
        ///   - retryAfterSeconds: The wait a refusal asks for, in seconds.
        ///   - holding: Awaited by every write while it holds its slot.
        public init(
            maximumConcurrentWrites: Int = 2,
            commitTime: Duration = .milliseconds(2),
            batchTime: Duration = .milliseconds(10),
            batchTimePerEntry: Duration = .microseconds(100),
            retryAfterSeconds: Int = 1,
            holding: (@Sendable (Write) async -> Void)? = nil
        ) {
            self.maximumConcurrentWrites = max(1, maximumConcurrentWrites)
            self.commitTime = commitTime
            self.batchTime = batchTime
            self.batchTimePerEntry = batchTimePerEntry
            self.retryAfterSeconds = max(0, retryAfterSeconds)
            self.holding = holding
        }

        /// How long a write holds its slot.
        func time(of write: Write) -> Duration {
            switch write {
            case .single: commitTime
            case .batch(let entries): batchTime + batchTimePerEntry * entries
            }
        }
    }

    /// One write to the namespace.
    public enum Write: Sendable, Hashable {
        /// A single commit: an upload, a session's finish, a delete, a move, a restore.
        case single
        /// A batch commit of this many entries.
        case batch(entries: Int)

        var isBatch: Bool {
            if case .batch = self { return true }
            return false
        }
    }

    /// What is in flight, and what was refused.
    private struct State {
        /// Writes holding a slot (a batch counts once).
        var writes = 0
        /// Whether one of them is a batch.
        var batchInFlight = false
        /// Writes refused so far.
        var refusals = 0
    }

    /// The settings; `nil` when contention is off.
    public let settings: Settings?
    private let state = Mutex(State())

    /// Creates the model.
    /// - Parameter settings: How writes contend; `nil` for never.
    init(settings: Settings?) {
        self.settings = settings
    }

    /// How many writes hold a slot now (a batch counts once).
    public var writesInFlight: Int { state.withLock { $0.writes } }
    /// Whether a batch commit holds a slot now.
    public var isBatchInFlight: Bool { state.withLock { $0.batchInFlight } }
    /// How many writes were refused with `too_many_write_operations` so far.
    public var refusals: Int { state.withLock { $0.refusals } }

    /// Runs one commit (an upload's, a finish's, a delete's, a move's...) as one write: it
    /// holds a slot for the modelled commit time, then `body` runs.
    /// - Throws: ``DropboxFailure`` 429 `too_many_write_operations` when too many writes are
    ///   in flight (`body` does not run); otherwise what `body` throws.
    func commit<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await run(.single, body)
    }

    /// Runs a batch commit of `entries` entries as one write: it waits for no other batch, and
    /// counts as one write towards ``Settings/maximumConcurrentWrites``.
    /// - Throws: ``DropboxFailure`` 429 `too_many_write_operations` when another batch or too
    ///   many writes are in flight (`body` does not run); otherwise what `body` throws.
    func batch<T: Sendable>(entries: Int, _ body: () async throws -> T) async throws -> T {
        try await run(.batch(entries: entries), body)
    }

    /// Takes a batch's slot now, or refuses it, and runs the batch in the background, holding
    /// the slot until `body` returns: the deprecated `upload_session/finish_batch`, which
    /// answers with a job id before it commits.
    /// - Throws: ``DropboxFailure`` 429 `too_many_write_operations` as ``batch(entries:_:)``
    ///   does; `body` then never runs.
    func launchBatch(entries: Int, _ body: @escaping @Sendable () async -> Void) throws(DropboxFailure) {
        let write = Write.batch(entries: entries)
        try acquire(write)
        Task {
            await hold(write)
            await body()
            release(write)
        }
    }

    private func run<T: Sendable>(_ write: Write, _ body: () async throws -> T) async throws -> T {
        guard settings != nil else { return try await body() }
        try acquire(write)
        defer { release(write) }
        await hold(write)
        return try await body()
    }

    private func acquire(_ write: Write) throws(DropboxFailure) {
        guard let settings else { return }
        let granted = state.withLock { state in
            guard state.writes < settings.maximumConcurrentWrites, !(write.isBatch && state.batchInFlight) else {
                state.refusals += 1
                return false
            }
            state.writes += 1
            if write.isBatch { state.batchInFlight = true }
            return true
        }
        guard granted else { throw .tooManyWriteOperations(retryAfter: settings.retryAfterSeconds) }
    }

    private func release(_ write: Write) {
        guard settings != nil else { return }
        state.withLock { state in
            state.writes -= 1
            if write.isBatch { state.batchInFlight = false }
        }
    }

    /// Holds the slot for the modelled time, then for as long as the test hook wants. The
    /// write goes ahead even when the request's task is cancelled, as a commit Dropbox has
    /// begun does.
    private func hold(_ write: Write) async {
        guard let settings else { return }
        let time = settings.time(of: write)
        if time > .zero { try? await Task.sleep(for: time) }
        await settings.holding?(write)
    }
}
