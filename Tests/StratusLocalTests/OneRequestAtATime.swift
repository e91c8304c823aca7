import Synchronization

/// The one thread of a simulated event-loop server: a request holds it while it works and gives
/// it up only while it waits for bytes from the network, so requests whose bodies arrive with
/// their heads run one after another.
final class OneRequestAtATime: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits until no other request holds the thread, then takes it.
    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if granted {
                continuation.resume()
            }
        }
    }

    /// Gives the thread to the next waiting request, or frees it.
    func give() {
        let next = state.withLock { state in
            if state.waiting.isEmpty {
                state.busy = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
