import Dispatch
import Stratus
import Synchronization

/// Set when the task that started a piece of blocking work is cancelled, so the work can stop
/// between two buffers.
final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)

    /// Whether the task was cancelled.
    var isCancelled: Bool { state.load(ordering: .relaxed) }

    /// Marks the task as cancelled.
    func cancel() { state.store(true, ordering: .relaxed) }

    /// Throws ``ServiceError/Code/cancelled`` when the task was cancelled.
    /// - Parameter message: What was stopped and what was left behind (nothing).
    func check(_ message: @autoclosure () -> String) throws {
        if isCancelled {
            throw ServiceError(.cancelled, message())
        }
    }
}

/// Runs file system work that blocks (reads, writes, `fsync`, waiting for the store's lock) on
/// Dispatch threads, so the Swift concurrency pool keeps running other tasks meanwhile.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "stratus.local.file-io", attributes: .concurrent)

    /// Runs work on a Dispatch thread and waits for it.
    /// - Parameter work: The work; it receives a flag that is set if the calling task is
    ///   cancelled while it runs.
    /// - Returns: What the work returns.
    /// - Throws: What the work throws.
    static func run<Result: Sendable>(
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
