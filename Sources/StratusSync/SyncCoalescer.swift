import Synchronization

/// Makes concurrent ``SyncStore/sync()`` calls share one run: a call made while a sync runs
/// waits for that run and gets its report.
final class SyncCoalescer: Sendable {
    private let current = Mutex<Task<SyncReport, any Error>?>(nil)

    func run(_ body: @escaping @Sendable () async throws -> SyncReport) async throws -> SyncReport {
        let task = current.withLock { current in
            if let running = current { return running }
            let task = Task { [weak self] in
                defer { self?.current.withLock { $0 = nil } }
                return try await body()
            }
            current = task
            return task
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
