import Foundation
public import ServiceLifecycle
import Stratus
import Synchronization

/// Keeps a ``SyncStore`` in sync by itself: it pushes soon after local writes, pulls when the
/// service reports a change, retries failures with backoff and jitter, goes offline when the
/// service cannot be reached and comes back as soon as it can, and never runs two syncs at a
/// time (it shares the store's scheduler with ``SyncStore/sync()``).
///
/// It is a swift-service-lifecycle `Service`: a server app adds it to its `ServiceGroup`, and
/// a graceful shutdown ends it after one last push of pending writes; any other app runs it in
/// a task and cancels the task to stop it (the sync running then is cancelled, which is safe:
/// what it did stays done).
///
/// ```swift
/// let automatic = store.automaticSync()
/// let syncing = Task { try await automatic.run() }
/// for await status in store.statusUpdates() { show(status) }   // idle, syncing, offline, ...
/// // ...
/// syncing.cancel()
/// ```
///
/// How soon another device sees a write: the debounce (``AutomaticSyncConfiguration/debounce``)
/// plus the service's ``/Stratus/ChangeWaiting/wakeBound`` plus one sync. See
/// <doc:SyncingAutomatically>.
public final class AutomaticSync: Sendable, ServiceLifecycle.Service {
    /// What ended one of ``run()``'s child tasks.
    private enum Child: Sendable {
        /// The scheduling loop returned (cancelled, or done after a graceful shutdown).
        case scheduleEnded
        /// A graceful shutdown's grace ran out while the loop still ran (a sync was stuck).
        case graceOver
        /// A task that forwards events ended.
        case forwarderEnded
    }

    /// What wakes the scheduling loop.
    private enum Event: Sendable {
        case localWrite
        case remoteChange
        case asked
        case timer
        case shutdown
    }

    /// The store kept in sync.
    public let store: SyncStore
    /// The schedule it follows.
    public let configuration: AutomaticSyncConfiguration

    private let afterSync: (@Sendable (SyncReport) -> Void)?
    /// Where events go while ``run()`` runs; `nil` otherwise.
    private let events = Mutex<AsyncStream<Event>.Continuation?>(nil)

    /// Creates an automatic sync for a store; nothing happens until ``run()``.
    /// - Parameters:
    ///   - store: The store.
    ///   - configuration: The schedule.
    public convenience init(store: SyncStore, configuration: AutomaticSyncConfiguration = AutomaticSyncConfiguration())
    {
        self.init(store: store, configuration: configuration, afterSync: nil)
    }

    /// - Parameter afterSync: Called after each sync this instance runs that got through.
    package init(
        store: SyncStore, configuration: AutomaticSyncConfiguration,
        afterSync: (@Sendable (SyncReport) -> Void)?
    ) {
        self.store = store
        self.configuration = configuration
        self.afterSync = afterSync
    }

    /// Asks for a sync now, whatever the backoff: call it when the app knows the network is
    /// back, or the user asks. Does nothing while ``run()`` is not running.
    public func requestSync() {
        _ = events.withLock { $0?.yield(.asked) }
    }

    /// Keeps the store in sync until the task is cancelled or a graceful shutdown (which
    /// pushes pending writes once more, when the service can be reached, and returns). A sync
    /// that is still running ``AutomaticSyncConfiguration/shutdownGrace`` after the shutdown
    /// began (a stuck one, or the last push) is cancelled, so the shutdown ends within the
    /// grace and the time a cancelled transfer takes to stop.
    /// - Throws: ``SyncError`` (`unsupported`) when this instance is already running.
    public func run() async throws {
        let (stream, sink) = AsyncStream<Event>.makeStream()
        let (shutdownBegan, shutdownSink) = AsyncStream<Void>.makeStream()
        let started = events.withLock { events -> Bool in
            guard events == nil else { return false }
            events = sink
            return true
        }
        guard started else { throw SyncError(.unsupported, "This automatic sync is already running.") }
        defer { events.withLock { $0 = nil } }
        let grace = configuration.shutdownGrace
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Child.self) { group in
                let edits = store.localEdits.stream()
                group.addTask {
                    for await _ in edits { sink.yield(.localWrite) }
                    return .forwarderEnded
                }
                let wayOuts = store.wayOutTaken.stream()
                group.addTask {
                    for await _ in wayOuts { sink.yield(.asked) }
                    return .forwarderEnded
                }
                group.addTask { [self] in
                    await watchRemote(sink)
                    return .forwarderEnded
                }
                group.addTask {
                    for await _ in shutdownBegan {
                        try? await Task.sleep(for: grace)
                        return Task.isCancelled ? .forwarderEnded : .graceOver
                    }
                    return .forwarderEnded
                }
                group.addTask { [self] in
                    await schedule(stream, sink)
                    return .scheduleEnded
                }
                while let child = await group.next() {
                    switch child {
                    case .scheduleEnded:
                        group.cancelAll()
                    case .graceOver:
                        store.logger.notice(
                            "A sync was still running \(grace) into a graceful shutdown; it is cancelled.")
                        group.cancelAll()
                    case .forwarderEnded:
                        continue
                    }
                }
            }
        } onGracefulShutdown: {
            sink.yield(.shutdown)
            shutdownSink.yield()
        }
    }

    /// The loop that decides when to sync (``AutomaticSyncPlan``) and runs the syncs.
    private func schedule(_ stream: AsyncStream<Event>, _ sink: AsyncStream<Event>.Continuation) async {
        let clock = ContinuousClock()
        var plan = AutomaticSyncPlan(configuration: configuration)
        plan.ask()
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        var iterator = stream.makeAsyncIterator()
        while !Task.isCancelled {
            if let due = plan.nextSync(now: clock.now), due <= clock.now {
                plan.syncStarted()
                await syncOnce(&plan, clock: clock)
                continue
            }
            timer?.cancel()
            timer = plan.nextSync(now: clock.now).map { due in
                Task {
                    try? await Task.sleep(until: due, clock: clock)
                    if !Task.isCancelled { sink.yield(.timer) }
                }
            }
            guard let event = await iterator.next() else { return }
            switch event {
            case .localWrite: plan.localWrite(at: clock.now)
            case .remoteChange: plan.remoteChange()
            case .asked: plan.ask()
            case .timer: break
            case .shutdown:
                await pushBeforeShutdown()
                return
            }
        }
    }

    /// Runs one sync and tells the plan how it went.
    private func syncOnce(_ plan: inout AutomaticSyncPlan, clock: ContinuousClock) async {
        let failure: SyncError?
        var foundChanges = true
        do {
            let report = try await store.sync()
            afterSync?(report)
            foundChanges = !report.pulled.isEmpty || !report.resolved.isEmpty
            // A sync that got through can still leave records that failed for a reason that
            // may pass (the status says so): they are tried again like a failed sync.
            if case .failing(let error, _) = store.status { failure = error } else { failure = nil }
        } catch {
            if Task.isCancelled { return }
            failure = SyncError.wrapping(error, "Syncing automatically", otherwise: .database)
        }
        guard let failure else {
            plan.syncSucceeded(foundChanges: foundChanges, at: clock.now, random: Double.random(in: 0...1))
            if let quiet = plan.quietUntil, quiet > clock.now, plan.emptyWakes >= 2 {
                store.logger.debug(
                    "\(plan.emptyWakes) reports of a change in a row found nothing; the next waits \(quiet - clock.now)."
                )
            }
            return
        }
        if Self.needsApp(failure) {
            plan.syncNeedsApp()
            store.statusBoard.failed(failure, nextAttempt: nil)
            store.logger.warning("Automatic sync waits for the app: \(failure)")
            return
        }
        let offline = StatusBoard.isOffline(failure)
        plan.syncFailed(offline: offline, at: clock.now, random: Double.random(in: 0...1))
        let next = plan.retryAt.map { Date().addingTimeInterval(($0 - clock.now) / .seconds(1)) }
        store.statusBoard.failed(failure, nextAttempt: next)
        store.logger.notice(
            "Automatic sync failed (\(plan.failures) in a row), next attempt in \(plan.retryAt.map { $0 - clock.now } ?? .zero): \(failure)"
        )
    }

    /// Pushes writes still waiting when a graceful shutdown comes, unless the service is known
    /// to be unreachable.
    private func pushBeforeShutdown() async {
        guard !store.status.isOffline, (try? store.pendingChangeCount()) ?? 0 > 0 else { return }
        _ = try? await store.sync()
    }

    /// Waits on the service for changes after the store's saved token and reports them; after
    /// each report, waits for the sync that reads them.
    private func watchRemote(_ sink: AsyncStream<Event>.Continuation) async {
        let service = store.service
        var failures = 0
        while !Task.isCancelled {
            let ended = store.runsEnded.stream()
            guard let token = try? await store.savedChangeToken() else {
                // No sync has read the feed yet: the first one is on its way.
                for await _ in ended { break }
                continue
            }
            if service.capabilities.changeWaiting.mechanism == .unavailable {
                // No feed to wait on: a sync compares listings, on the polling schedule.
                try? await Task.sleep(for: service.capabilities.changeWaiting.polling.maximum)
            } else {
                do {
                    let outcome = try await service.waitForChanges(after: token, timeout: configuration.waitTimeout)
                    failures = 0
                    if outcome == .timedOut { continue }
                } catch {
                    if Task.isCancelled { return }
                    // An invalid token or a failure: the sync that follows reads a full listing
                    // or finds the service unreachable (and backs off); repeated failures of the
                    // wait alone pause here.
                    failures += 1
                    if failures > 1 {
                        let pause = min(configuration.firstRetry * (1 << min(failures, 16)), configuration.maximumRetry)
                        try? await Task.sleep(for: pause)
                    }
                }
            }
            // A sync that ran meanwhile read the feed past `token`: wait again from there.
            if (try? await store.savedChangeToken()) != token { continue }
            let next = store.runsEnded.stream()
            sink.yield(.remoteChange)
            for await _ in next { break }
        }
    }

    /// Whether only the app can settle a failure: the remote was replaced, many records
    /// vanished, or the remote is of a newer format.
    static func needsApp(_ error: SyncError) -> Bool {
        [.remoteReplaced, .massDeletion, .unsupportedFormat].contains(error.code)
    }

}

extension SyncStore {
    /// An ``AutomaticSync`` for this store: run it to keep the store in sync by itself.
    /// - Parameter configuration: The schedule.
    public func automaticSync(_ configuration: AutomaticSyncConfiguration = AutomaticSyncConfiguration())
        -> AutomaticSync
    {
        AutomaticSync(store: self, configuration: configuration)
    }

    /// The change token the last sync saved, or `nil` before the first.
    func savedChangeToken() async throws -> ChangeToken? {
        try await state.read { try $0.setting(Self.tokenSetting) }.map(ChangeToken.init(rawValue:))
    }
}
