import Stratus
import Synchronization

/// A lock for async code, per key: one holder per key at a time, the others suspended (never
/// blocking a thread) and served first come, first served, so no waiter can lose every turn.
/// The token stores hold one key; WebDAV's writers line up per path, so only the writer at the
/// front asks the server for the path's lock.
package final class AsyncLock: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// For each held key, the waiters in arrival order; a key that is absent is free.
    private let lines = Mutex<[String: [Waiter]]>([:])
    private let nextID = Atomic<UInt64>(0)
    private let cancelledMessage: String

    /// A lock with no holder.
    /// - Parameter cancelledMessage: The message of the `cancelled` error a waiter whose task
    ///   is cancelled gets, such as "The write was cancelled while it waited for another write
    ///   of the same path."
    package init(cancelledMessage: String) {
        self.cancelledMessage = cancelledMessage
    }

    /// Runs `body` while holding the key's lock.
    /// - Parameters:
    ///   - key: What is locked; every caller of a lock with one resource passes the default.
    ///   - body: The work done under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: ``/Stratus/ServiceError`` with code `cancelled` when the task is cancelled while
    ///   it waits (it then never held the lock), or what `body` throws.
    package func withLock<Result: Sendable>(_ key: String = "", _ body: () async throws -> Result)
        async throws -> Result
    {
        try await enter(key)
        defer { leave(key) }
        return try await body()
    }

    /// How many callers wait for a key now (not counting its holder).
    /// - Parameter key: The key.
    /// - Returns: The number of waiters.
    package func waiting(for key: String = "") -> Int {
        lines.withLock { $0[key]?.count ?? 0 }
    }

    private func enter(_ key: String) async throws {
        let id = nextID.add(1, ordering: .relaxed).newValue
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lines.withLock { lines in
                    if Task.isCancelled { return .failure(ServiceError(.cancelled, cancelledMessage)) }
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
            removed?.continuation.resume(throwing: ServiceError(.cancelled, cancelledMessage))
        }
    }

    /// Hands the key to the next waiter in line, or frees it.
    private func leave(_ key: String) {
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
}
