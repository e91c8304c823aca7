import Synchronization

/// The drive's state behind one lock.
final class GraphStore: Sendable {
    private let state: Mutex<GraphState>

    /// A drive with only its root.
    init(appFolderName: String) {
        state = Mutex(GraphState(appFolderName: appFolderName))
    }

    /// Runs `body` with the state, under the lock. Answers are built inside (copying the state
    /// out would make the next write copy it whole).
    func withState<Result: Sendable>(_ body: (inout GraphState) throws(GraphFailure) -> Result) throws(GraphFailure)
        -> Result
    {
        try state.withLock { (state: inout GraphState) throws(GraphFailure) -> Result in try body(&state) }
    }

    /// Runs `body` with the state, under the lock, when it cannot fail.
    func read<Result: Sendable>(_ body: (inout GraphState) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
