import Dispatch
import Synchronization

/// Set when the task that started a piece of blocking work is cancelled, so the work can stop
/// between two steps.
package final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    /// A flag that is not set.
    package init() {}

    /// Whether the task was cancelled.
    package var isCancelled: Bool { state.load(ordering: .relaxed) }

    /// Marks the task as cancelled.
    package func cancel() { state.store(true, ordering: .relaxed) }
}

/// Runs work that blocks (file reads and writes, `fsync`, waiting for a lock, starting a server
/// and waiting for its port) on Dispatch threads, so it never holds a thread of Swift's
/// cooperative pool, which has one per core: a blocked pool thread stalls every other task.
package enum BlockingWork {
    private static let queue = DispatchQueue(label: "stratus.blocking-work", attributes: .concurrent)

    /// Runs work on a Dispatch thread and waits for it.
    /// - Parameter work: The work; it receives a flag that is set if the calling task is
    ///   cancelled while it runs.
    /// - Returns: What the work returns.
    /// - Throws: What the work throws.
    package static func run<Result: Sendable>(
        _ work: @escaping @Sendable (CancellationFlag) throws -> Result
    ) async throws -> Result {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Swift.Result { try work(flag) })
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }
}
