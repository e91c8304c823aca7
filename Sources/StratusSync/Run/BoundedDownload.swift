import Stratus
import Synchronization

/// A download that is stopped as soon as more than a limit has arrived, for content whose size
/// this library caps (a record document, the store marker): a remote that lists, or sends, far
/// more costs the limit, not the whole transfer.
enum BoundedDownload {
    /// The download passed its limit and was stopped.
    struct Exceeded: Error {
        /// How many bytes had arrived when it was stopped.
        var received: Int64
    }

    /// Runs a download with options whose progress stops it past `limit`.
    /// - Parameters:
    ///   - limit: The most the content may hold, in bytes.
    ///   - download: The download, given the options to pass on.
    /// - Returns: What the download returns.
    /// - Throws: ``Exceeded`` when it was stopped; whatever the download throws otherwise.
    static func run(
        limit: Int64, _ download: @escaping @Sendable (DownloadOptions) async throws -> RemoteFile
    ) async throws -> RemoteFile {
        let watch = Watch(limit: limit)
        let task = Task { try await download(DownloadOptions(progress: watch.observe)) }
        watch.attach(task)
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            if let received = watch.exceeded { throw Exceeded(received: received) }
            throw error
        }
    }

    /// Watches the progress and cancels the download's task once it passes the limit.
    private final class Watch: Sendable {
        private let limit: Int64
        private let state = Mutex<(exceeded: Int64?, task: Task<RemoteFile, any Error>?)>((nil, nil))

        init(limit: Int64) { self.limit = limit }

        /// How many bytes had arrived when the limit was passed, or `nil`.
        var exceeded: Int64? { state.withLock { $0.exceeded } }

        /// Keeps the task to cancel, cancelling it at once if the limit was already passed.
        func attach(_ task: Task<RemoteFile, any Error>) {
            let cancelNow = state.withLock { state in
                state.task = task
                return state.exceeded != nil
            }
            if cancelNow { task.cancel() }
        }

        /// The download's progress handler.
        @Sendable func observe(_ progress: TransferProgress) {
            guard progress.completedBytes > limit else { return }
            let task = state.withLock { state in
                if state.exceeded == nil { state.exceeded = progress.completedBytes }
                return state.task
            }
            task?.cancel()
        }
    }
}
