import Foundation
import Synchronization

/// Hands every element sent to each open sequence: the one mechanism behind
/// ``SyncStore/changes()``, ``SyncStore/statusUpdates()`` and the key-value store's external
/// changes.
package final class Broadcaster<Element: Sendable>: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<Element>.Continuation]>([:])
    private let buffer: Int

    /// - Parameter buffer: How many elements a slow reader may fall behind; older ones are
    ///   dropped past that.
    package init(buffer: Int) {
        self.buffer = buffer
    }

    /// A new sequence of what is sent from now on, starting with `first` when given.
    package func stream(startingWith first: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let id = UUID()
        listeners.withLock { listeners in
            // Under the lock, so that nothing sent meanwhile comes before `first`.
            if let first { continuation.yield(first) }
            listeners[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { _ = $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends elements, in order, to every open sequence.
    package func send(_ elements: [Element]) {
        guard !elements.isEmpty else { return }
        listeners.withLock { listeners in
            for continuation in listeners.values {
                for element in elements { continuation.yield(element) }
            }
        }
    }

    /// Ends every open sequence; later calls of ``stream(startingWith:)`` make new ones.
    package func finish() {
        let current = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return Array(listeners.values)
        }
        for continuation in current { continuation.finish() }
    }
}
