import Foundation
import Synchronization

/// The asynchronous jobs a route launched (`delete_batch`, `upload_session/finish_batch`), by
/// `async_job_id`, for its `check` route to answer. A job is in progress until its answer is
/// recorded (`delete_batch` does its work at launch, `finish_batch` in the background), and a
/// check answers `in_progress` a set number of times first
/// (``MockDropboxServer/Options/pendingJobChecks``), so that clients poll as they must
/// against Dropbox. Kept in memory only: after a restart every earlier id is unknown
/// (`invalid_async_job_id`), as for a job Dropbox no longer remembers. Safe from any task.
final class AsyncJobs: Sendable {
    /// What a check of a job answers.
    enum Status: Sendable {
        /// `in_progress`.
        case inProgress
        /// Done: the JSON text of the route's job status (such as `{".tag": "complete", ...}`).
        case done(String)
    }

    private struct Job {
        var checksLeft: Int
        /// The answer, once the job is done.
        var answer: String?
    }

    private struct Jobs {
        var byID: [String: Job] = [:]
        /// Ids oldest first, so that the oldest job is forgotten past ``AsyncJobs/capacity``.
        var order: [String] = []
    }

    /// How many jobs are remembered; launching one more forgets the oldest.
    static let capacity = 1000

    private let jobs = Mutex(Jobs())

    /// Remembers a finished job and gives it an id shaped like Dropbox's (`dbjid:` and 86
    /// URL-safe characters).
    /// - Parameters:
    ///   - answer: The JSON text its checks answer once it is done.
    ///   - pendingChecks: How many checks answer `in_progress` first.
    /// - Returns: The `async_job_id`.
    func launch(answer: String, pendingChecks: Int) -> String {
        let id = start(pendingChecks: pendingChecks)
        complete(id, answer: answer)
        return id
    }

    /// Remembers a job in progress (its checks answer `in_progress` until ``complete(_:answer:)``).
    /// - Parameter pendingChecks: How many checks answer `in_progress` even once it is done.
    /// - Returns: The `async_job_id`.
    func start(pendingChecks: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        let id = "dbjid:" + String((0..<86).map { _ in alphabet.randomElement() ?? "A" })
        jobs.withLock { jobs in
            jobs.byID[id] = Job(checksLeft: max(0, pendingChecks), answer: nil)
            jobs.order.append(id)
            if jobs.order.count > Self.capacity {
                jobs.byID[jobs.order.removeFirst()] = nil
            }
        }
        return id
    }

    /// Records a job's answer.
    func complete(_ id: String, answer: String) {
        jobs.withLock { $0.byID[id]?.answer = answer }
    }

    /// Forgets a job that never started.
    func forget(_ id: String) {
        jobs.withLock { jobs in
            jobs.byID[id] = nil
            jobs.order.removeAll { $0 == id }
        }
    }

    /// Checks a job: `in_progress` while it runs or has pending checks left, then its answer
    /// (again on every later check).
    /// - Parameter id: The `async_job_id`.
    /// - Returns: Its status, or `nil` when no such job is remembered.
    func check(_ id: String) -> Status? {
        jobs.withLock { jobs in
            guard var job = jobs.byID[id] else { return nil }
            guard let answer = job.answer else { return .inProgress }
            guard job.checksLeft == 0 else {
                job.checksLeft -= 1
                jobs.byID[id] = job
                return .inProgress
            }
            return .done(answer)
        }
    }
}
