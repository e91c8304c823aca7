import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// One upload session: fragments `PUT` in order to the session's URL with `Content-Range`,
/// never with an `Authorization` header (the URL carries its own authorization, and Graph
/// refuses a bearer token there). Graph answers 202 with `nextExpectedRanges` until the last
/// fragment, then 200 or 201 with the item.
///
/// When a fragment's outcome is unknown (the connection dropped, a 5xx), the session is asked
/// (`GET` of its URL) which bytes it still expects and the upload goes on from there. A 416
/// means the fragment was already taken, and a 202 whose body cannot be read leaves the
/// session's state unknown: the session is asked the same way. A 404 means the session expired
/// or was cancelled.
struct OneDriveUploadSession: Sendable {
    /// The session expired or is unknown to Graph; start a new one.
    struct Expired: Error, Sendable {}

    let transport: OneDriveTransport
    let content: UploadContent
    let fragmentSize: Int64
    let progress: MonotonicProgress

    /// Sends the content from `offset` to the end.
    ///
    /// The session must move forward: a fragment after which the session expects no byte
    /// beyond the furthest it ever expected (a dropped connection, a 5xx, a 416, or a 202 that
    /// names an earlier offset, such as `["0-"]` every time) counts against
    /// ``/Stratus/RetryPolicy/maximumAttempts`` until the session moves again, and all fragments
    /// together are bounded (``fragmentBudget(from:)``), so a server cannot keep the upload
    /// going forever.
    /// - Parameters:
    ///   - session: The session's `uploadUrl`.
    ///   - offset: The first byte to send.
    /// - Returns: The item Graph made or updated.
    /// - Throws: ``Expired`` when the session is gone; ``/Stratus/ServiceError`` otherwise
    ///   (``/Stratus/ServiceError/Code/invalidResponse`` for a session that does not move forward).
    func send(to session: URL, from offset: Int64) async throws -> OneDriveItem {
        let size = content.size
        var offset = offset
        var headway = Headway(
            furthest: offset, limit: transport.configuration.retryPolicy.maximumAttempts,
            budget: fragmentBudget(from: offset))
        while true {
            try Task.checkCancellation()
            guard headway.spend() else { throw stalled(headway) }
            let range = OneDriveFragmentPlan.fragment(from: offset, size: size, fragmentSize: fragmentSize)
            var request = StratusHTTPRequest(method: .put, url: session)
            request.headers.set("Content-Range", OneDriveFragmentPlan.contentRange(range, size: size))
            request.headers.set("Content-Type", "application/octet-stream")
            request.body = content.body(range)
            // After a dropped connection the session is asked what it holds (below) rather than
            // libcurl resending the fragment on its own.
            request.isIdempotent = false
            let response: StratusHTTPResponse
            do {
                response = try await transport.sendWithoutAuthorization(
                    request, action: "The OneDrive upload fragment",
                    progress: progress.upload(from: range.lowerBound, limit: size))
            } catch let error as ServiceError where Repetition.leavesOutcomeUnknown(error) {
                offset = try await resumeOffset(session) ?? offset
                guard headway.reached(offset) else { throw error }
                continue
            }
            switch response.status {
            case 200, 201:
                progress.report(size)
                return try OneDriveJSON.decode(OneDriveItem.self, from: response.body, action: "the last fragment")
            case 202:
                let status: OneDriveUploadSessionStatus
                do {
                    status = try OneDriveJSON.decode(
                        OneDriveUploadSessionStatus.self, from: response.body, action: "an upload fragment")
                } catch {
                    // The fragment was taken but its answer was damaged on the way: ask the
                    // session which bytes it expects rather than give the upload up.
                    offset = try await resumeOffset(session) ?? range.upperBound
                    guard headway.reached(offset) else { throw error }
                    progress.report(offset)
                    continue
                }
                let next = try OneDriveFragmentPlan.firstExpected(status.nextExpectedRanges ?? [], size: size)
                offset = next ?? range.upperBound
                guard headway.reached(offset) else { throw stalled(headway) }
                progress.report(offset)
            case 404:
                throw Expired()
            case 416:
                // Graph already holds (part of) this fragment: ask where to go on.
                guard let next = try await resumeOffset(session), headway.reached(next) else {
                    throw ServiceError(
                        .server, "OneDrive's upload session refused its fragments (HTTP 416) and expects none.")
                }
                offset = next
            default:
                let error = OneDriveErrorMapping.error(
                    status: response.status, headers: response.headers, body: response.body,
                    action: "an upload fragment", secrets: [session.absoluteString])
                guard RetryPolicy.isTransient(error) else { throw error }
                if let wait = error.retryAfter { try await Task.sleep(for: wait) }
                offset = try await resumeOffset(session) ?? offset
                guard headway.reached(offset) else { throw error }
            }
        }
    }

    /// The most fragments one ``send(to:from:)`` may send: twice the fragments the rest of the
    /// content needs, plus the retries the policy allows, so every fragment may be sent again
    /// once while a session that crawls forward a few bytes at a time still ends.
    func fragmentBudget(from offset: Int64) -> Int {
        let remaining = max(0, content.size - offset)
        let (quotient, remainder) = remaining.quotientAndRemainder(dividingBy: max(1, fragmentSize))
        let planned = Int(clamping: quotient) + (remainder > 0 || remaining == 0 ? 1 : 0)
        let doubled = planned.multipliedReportingOverflow(by: 2)
        let total = doubled.partialValue.addingReportingOverflow(transport.configuration.retryPolicy.maximumAttempts)
        return doubled.overflow || total.overflow ? Int.max : total.partialValue
    }

    /// The error of a session that stopped moving forward; it names neither the session's URL
    /// (a secret) nor more than the bytes it reached.
    private func stalled(_ headway: Headway) -> ServiceError {
        ServiceError(
            .invalidResponse,
            "OneDrive's upload session stopped moving forward at byte \(headway.furthest) of \(content.size) after \(headway.sent) fragments; the upload was given up."
        )
    }

    /// How far a session got, and how many fragments it may still take to get further.
    struct Headway {
        /// The furthest first-expected byte the session reported (or the starting offset).
        private(set) var furthest: Int64
        /// How many fragments in a row did not move ``furthest``.
        private(set) var fruitless = 0
        /// How many fragments were sent.
        private(set) var sent = 0
        /// How many fragments in a row may leave the session where it was.
        let limit: Int
        /// How many fragments may be sent in all.
        let budget: Int

        /// Counts one more fragment; `false` when the budget is spent.
        mutating func spend() -> Bool {
            guard sent < budget else { return false }
            sent += 1
            return true
        }

        /// Records where the session stands after a fragment; `false` when too many fragments in
        /// a row left it no further than it was.
        mutating func reached(_ offset: Int64) -> Bool {
            if offset > furthest {
                furthest = offset
                fruitless = 0
                return true
            }
            fruitless += 1
            return fruitless < limit
        }
    }

    /// The first byte the session still expects (`GET` of its URL, without authorization), or
    /// `nil` when it expects none.
    /// - Throws: ``Expired`` when the session is gone.
    func resumeOffset(_ session: URL) async throws -> Int64? {
        let response = try await transport.configuration.retryPolicy.run(.safe) { _ in
            let answer = try await transport.sendWithoutAuthorization(
                StratusHTTPRequest(method: .get, url: session), action: "The OneDrive upload session status")
            if answer.status == 404 || answer.isSuccess { return answer }
            throw OneDriveErrorMapping.error(
                status: answer.status, headers: answer.headers, body: answer.body,
                action: "the upload session status", secrets: [session.absoluteString])
        }
        guard response.status != 404 else { throw Expired() }
        let status = try OneDriveJSON.decode(
            OneDriveUploadSessionStatus.self, from: response.body, action: "the upload session status")
        return try OneDriveFragmentPlan.firstExpected(status.nextExpectedRanges ?? [], size: content.size)
    }
}
