import StratusHTTP
import Synchronization

/// The next page of the change feed, read while the caller works through the current one.
///
/// `changes.list` pages can only be read in order (each names the next), so a reader that
/// fetches a page, interprets it and only then asks for the next leaves the server idle while
/// it works and itself idle while the server works. When a page says more follow, the service
/// starts reading the next one at once and keeps it here for the call that asks for its token.
///
/// A page read early is as good as one read later: it holds the changes after its token up to
/// the moment it was read, and the token it hands out continues from exactly there (the server
/// time a last page records is that of its own answer), so no change is lost or repeated. One
/// page is held per service; starting another cancels the one held, and a failed or cancelled
/// read is simply read again by the caller.
final class DriveChangePrefetch: Sendable {
    /// A decoded page and the answer it came in (for its `Date` header).
    typealias Page = (list: DriveChangeList, response: StratusHTTPResponse)

    private let held = Mutex<(pageToken: String, task: Task<Page, any Error>)?>(nil)

    deinit {
        held.withLock { $0?.task.cancel() }
    }

    /// Starts reading the page for a token, replacing (and cancelling) the page held before.
    func start(_ pageToken: String, _ read: @escaping @Sendable () async throws -> Page) {
        let task = Task { try await read() }
        let previous = held.withLock { held in
            let previous = held?.task
            held = (pageToken, task)
            return previous
        }
        previous?.cancel()
    }

    /// The page started for a token, once it has arrived; `nil` when none was started for it or
    /// its read failed (the caller then reads it itself). Cancelling the caller cancels the read.
    func take(_ pageToken: String) async -> Page? {
        let task = held.withLock { held -> Task<Page, any Error>? in
            guard let current = held, current.pageToken == pageToken else { return nil }
            held = nil
            return current.task
        }
        guard let task else { return nil }
        return await withTaskCancellationHandler {
            try? await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
