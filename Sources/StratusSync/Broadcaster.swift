import Foundation
import Synchronization

/// Hands every record change to each open ``SyncStore/changes()`` sequence.
final class ChangeBroadcaster: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<RecordChange>.Continuation]>([:])

    func stream() -> AsyncStream<RecordChange> {
        let (stream, continuation) = AsyncStream<RecordChange>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { _ = $0.removeValue(forKey: id) }
        }
        return stream
    }

    func send(_ changes: [RecordChange]) {
        guard !changes.isEmpty else { return }
        let current = listeners.withLock { Array($0.values) }
        for continuation in current {
            for change in changes { continuation.yield(change) }
        }
    }

    func finish() {
        let current = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return Array(listeners.values)
        }
        for continuation in current { continuation.finish() }
    }
}
