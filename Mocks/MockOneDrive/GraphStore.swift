import Synchronization

/// The drive's state behind one lock.
final class GraphStore: Sendable {
    private let state: Mutex<GraphState>
    /// Called after a request changed the state (the saved state's hook).
    private let didChange: @Sendable () -> Void

    /// A store of a state.
    init(state: GraphState, didChange: @escaping @Sendable () -> Void = {}) {
        self.state = Mutex(state)
        self.didChange = didChange
    }

    /// Runs `body` with the state, under the lock. Answers are built inside (copying the state
    /// out would make the next write copy it whole).
    func withState<Result: Sendable>(_ body: (inout GraphState) throws(GraphFailure) -> Result) throws(GraphFailure)
        -> Result
    {
        var changed = false
        defer { if changed { didChange() } }
        return try state.withLock { (state: inout GraphState) throws(GraphFailure) -> Result in
            let before = state.changeMark
            defer { changed = state.changeMark != before }
            return try body(&state)
        }
    }

    /// Runs `body` with the state, under the lock, when it cannot fail.
    func read<Result: Sendable>(_ body: (inout GraphState) -> Result) -> Result {
        var changed = false
        defer { if changed { didChange() } }
        return state.withLock { state in
            let before = state.changeMark
            defer { changed = state.changeMark != before }
            return body(&state)
        }
    }

    /// A copy of the state, for a save (copy-on-write: constant time under the lock).
    func copy() -> GraphState {
        state.withLock { $0 }
    }
}

extension GraphState {
    /// What every change moves: the log, the delta epoch, the eTag drifts waiting.
    var changeMark: [Int] { [log.count, deltaEpoch, driftPending.count] }
}
