import Stratus
import Synchronization

/// Writers of one service instance in line for a path, first come first served: a writer asks
/// the server for the path's lock only once the writers of this instance before it are done.
///
/// Without it, eight writers of one instance racing for a path all poll the server with LOCKs;
/// the one whose random pause ends first wins each turn, so a writer can lose every turn, and the
/// polls load the server that the writer holding the lock is waiting on.
final class WriterQueue: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// For each busy key, the writers waiting for it in arrival order; a key that is absent is
    /// free. Guarded by the mutex.
    private let lines = Mutex<[String: [Waiter]]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// Waits for the turn at a key (at once when it is free). Every successful `enter` must be
    /// followed by one ``leave(_:)``.
    /// - Throws: ``Stratus/ServiceError/Code/cancelled`` when the task is cancelled while it
    ///   waits (it then has no turn to leave).
    func enter(_ key: String) async throws {
        let id = nextID.add(1, ordering: .relaxed).newValue
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lines.withLock { lines in
                    if Task.isCancelled { return .failure(Self.cancelled) }
                    guard var waiting = lines[key] else {
                        lines[key] = []
                        return .success(())
                    }
                    waiting.append(Waiter(id: id, continuation: continuation))
                    lines[key] = waiting
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let removed = lines.withLock { lines -> Waiter? in
                guard var waiting = lines[key], let index = waiting.firstIndex(where: { $0.id == id }) else {
                    return nil
                }
                let waiter = waiting.remove(at: index)
                lines[key] = waiting
                return waiter
            }
            removed?.continuation.resume(throwing: Self.cancelled)
        }
    }

    /// Ends the turn at a key, handing it to the next writer in line.
    func leave(_ key: String) {
        let next = lines.withLock { lines -> Waiter? in
            guard var waiting = lines[key] else { return nil }
            guard !waiting.isEmpty else {
                lines[key] = nil
                return nil
            }
            let first = waiting.removeFirst()
            lines[key] = waiting
            return first
        }
        next?.continuation.resume()
    }

    private static var cancelled: ServiceError {
        ServiceError(.cancelled, "The write was cancelled while it waited for another write of the same path.")
    }
}
