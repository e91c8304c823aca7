import Stratus

/// One upload waiting for its commit: a closed upload session and the `CommitInfo` to commit
/// it with.
struct BatchEntry: Sendable {
    /// The closed session holding the bytes.
    var sessionID: String
    /// The session's size, the cursor's offset.
    var size: Int64
    /// The `CommitInfo` members (path, mode, `strict_conflict`, property groups).
    var commit: [(String, StoneValue)]
    /// The file's path, in the caller's spelling.
    var path: RemotePath
    /// The `content_hash` of the session's bytes.
    var contentHash: String
}

/// What a batch did with one entry.
enum BatchOutcome: Sendable {
    /// Committed: the file as Dropbox describes it.
    case committed(RemoteFile)
    /// Not committed, for a reason the entry's caller must hear (a conflict, a bad path...).
    case failed(any Error)
    /// Refused for write contention (`too_many_write_operations`): send it again later.
    case refused(ServiceError)
}

/// Commits uploads in batches, one batch in flight at a time (see ``CommitBatching``): the
/// driver of a ``BatchQueue``. An upload announces itself when it begins (``announce()``), so
/// that commits wait for the uploads still sending their bytes, and ends with
/// ``commit(_:ticket:)`` or ``abandon(_:)``. A caller waits in ``commit(_:ticket:)`` for its
/// entry's outcome; a caller cancelled while its entry waits is withdrawn and gets
/// `CancellationError`, while one whose entry is already on its way waits for the answer, since
/// the commit may happen.
actor BatchCommitter {
    /// An announced upload, to be ended once by a commit or an abandon.
    struct Ticket: Sendable, Hashable {
        fileprivate let number: Int
    }

    /// Sends one batch and reports each entry's outcome, in order.
    typealias Send = @Sendable ([BatchEntry]) async -> [BatchOutcome]

    private let settings: CommitBatching
    private let maximumAttempts: Int
    private let send: Send
    private var queue: BatchQueue<Int>
    private var entries: [Int: (entry: BatchEntry, attempts: Int)] = [:]
    private var waiters: [Int: CheckedContinuation<RemoteFile, any Error>] = [:]
    private var nextKey = 0
    private var openTickets: Set<Int> = []

    /// Creates a committer.
    /// - Parameters:
    ///   - settings: The window and batch size.
    ///   - maximumAttempts: How many batches an entry refused for contention may ride in.
    ///   - send: Sends a batch.
    init(settings: CommitBatching, maximumAttempts: Int, send: @escaping Send) {
        self.settings = settings
        self.maximumAttempts = max(1, maximumAttempts)
        self.send = send
        self.queue = BatchQueue(maximumEntries: settings.maximumEntries)
    }

    /// An upload begins: commits that arrive before its own wait for it, for at most the
    /// window.
    /// - Returns: The ticket its commit, or its abandon, gives back.
    func announce() -> Ticket {
        let ticket = Ticket(number: nextKey)
        nextKey += 1
        openTickets.insert(ticket.number)
        queue.announce()
        return ticket
    }

    /// An announced upload ends without committing (it failed first); a ticket already given
    /// back is ignored.
    func abandon(_ ticket: Ticket) {
        guard openTickets.remove(ticket.number) != nil else { return }
        perform(queue.abandon())
    }

    /// Commits an entry with the next batch.
    /// - Parameter ticket: The upload's ticket, when it announced itself.
    /// - Returns: The committed file.
    /// - Throws: The entry's failure, `CancellationError` when cancelled before it was sent.
    func commit(_ entry: BatchEntry, ticket: Ticket? = nil) async throws -> RemoteFile {
        let wasAnnounced = ticket.map { openTickets.remove($0.number) != nil } ?? false
        if Task.isCancelled {
            if wasAnnounced { perform(queue.abandon()) }
            throw CancellationError()
        }
        let key = nextKey
        nextKey += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                entries[key] = (entry, 0)
                waiters[key] = continuation
                perform(queue.add(key, wasAnnounced: wasAnnounced))
            }
        } onCancel: {
            Task { await self.withdraw(key) }
        }
    }

    /// How many commits wait for a batch (for tests).
    var waitingCount: Int { queue.waiting.count }

    private func withdraw(_ key: Int) {
        guard queue.withdraw(key) else { return }
        resolve(key, .failure(CancellationError()))
    }

    private func windowClosed(_ number: Int) {
        perform(queue.windowClosed(number))
    }

    private func perform(_ action: BatchQueue<Int>.Action) {
        switch action {
        case .none:
            break
        case .openWindow(let number):
            guard settings.window > .zero else { return perform(queue.windowClosed(number)) }
            let window = settings.window
            Task {
                try? await Task.sleep(for: window)
                self.windowClosed(number)
            }
        case .send(let keys):
            let batch = keys.compactMap { key in entries[key].map { (key, $0.entry) } }
            let send = send
            Task {
                let outcomes = await send(batch.map(\.1))
                // Dropbox asks a client refused for contention to wait before it writes again (the
                // error mapping gives every refusal a wait, one second when Dropbox names none).
                let waits = outcomes.compactMap { if case .refused(let error) = $0 { error.retryAfter } else { nil } }
                if let wait = waits.max() {
                    try? await Task.sleep(for: wait)
                }
                self.finished(batch.map(\.0), outcomes)
            }
        }
    }

    private func finished(_ keys: [Int], _ outcomes: [BatchOutcome]) {
        var again: [Int] = []
        for (index, key) in keys.enumerated() {
            guard index < outcomes.count else {
                resolve(key, .failure(ServiceError(.invalidResponse, "Dropbox's batch answer lacks an entry.")))
                continue
            }
            switch outcomes[index] {
            case .committed(let file):
                resolve(key, .success(file))
            case .failed(let error):
                resolve(key, .failure(error))
            case .refused(let error):
                let attempts = (entries[key]?.attempts ?? maximumAttempts) + 1
                entries[key]?.attempts = attempts
                if attempts < maximumAttempts {
                    again.append(key)
                } else {
                    resolve(key, .failure(error))
                }
            }
        }
        perform(queue.batchFinished(again: again))
    }

    private func resolve(_ key: Int, _ result: Result<RemoteFile, any Error>) {
        entries[key] = nil
        waiters.removeValue(forKey: key)?.resume(with: result)
    }
}

/// An upload that announced itself to a committer: it ends with ``commit(_:)`` or
/// ``abandon()``.
struct AnnouncedUpload: Sendable {
    let committer: BatchCommitter
    let ticket: BatchCommitter.Ticket

    /// Announces an upload.
    static func begin(with committer: BatchCommitter) async -> AnnouncedUpload {
        AnnouncedUpload(committer: committer, ticket: await committer.announce())
    }

    /// Commits the upload's closed session with the next batch.
    func commit(_ entry: BatchEntry) async throws -> RemoteFile {
        try await committer.commit(entry, ticket: ticket)
    }

    /// Ends the upload without a commit (no effect after ``commit(_:)``).
    func abandon() async {
        await committer.abandon(ticket)
    }
}
