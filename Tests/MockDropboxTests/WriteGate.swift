import MockDropbox
import Synchronization

/// Keeps every write the mock makes in flight until the test opens it, and tells the test when
/// writes have arrived: the mock's ``WriteContention/Settings/holding`` hook, for contention
/// tests that do not depend on timing.
final class WriteGate: Sendable {
    private struct State {
        var isOpen = false
        var arrived: [WriteContention.Write] = []
        var held: [CheckedContinuation<Void, Never>] = []
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    /// Creates a gate.
    /// - Parameter open: Whether writes pass at first (``close()`` stops them later).
    init(open: Bool = false) {
        state = Mutex(State(isOpen: open))
    }

    /// Contention settings whose writes wait at this gate (no modelled time besides).
    /// - Parameter maximumConcurrentWrites: How many writes may be in flight at once.
    func settings(maximumConcurrentWrites: Int = 2) -> WriteContention.Settings {
        WriteContention.Settings(
            maximumConcurrentWrites: maximumConcurrentWrites, commitTime: .zero, batchTime: .zero,
            batchTimePerEntry: .zero, holding: { write in await self.hold(write) })
    }

    /// The writes that reached the gate so far, in order.
    var arrivals: [WriteContention.Write] { state.withLock { $0.arrived } }

    /// Called by each write while it holds its slot: waits until the gate is open.
    func hold(_ write: WriteContention.Write) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (passNow, ready) = state.withLock { state in
                state.arrived.append(write)
                let count = state.arrived.count
                let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
                state.watchers.removeAll { $0.count <= count }
                if !state.isOpen { state.held.append(continuation) }
                return (state.isOpen, ready)
            }
            for watcher in ready { watcher.resume() }
            if passNow { continuation.resume() }
        }
    }

    /// Waits until `count` writes have reached the gate.
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.arrived.count < count else { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Holds every later write until ``open()``.
    func close() {
        state.withLock { $0.isOpen = false }
    }

    /// Lets every held write, and every later one, go on.
    func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
