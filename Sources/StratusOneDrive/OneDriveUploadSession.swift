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
    /// - Parameters:
    ///   - session: The session's `uploadUrl`.
    ///   - offset: The first byte to send.
    /// - Returns: The item Graph made or updated.
    /// - Throws: ``Expired`` when the session is gone; ``/Stratus/ServiceError`` otherwise.
    func send(to session: URL, from offset: Int64) async throws -> OneDriveItem {
        let size = content.size
        var offset = offset
        var failures = 0
        while true {
            try Task.checkCancellation()
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
                failures += 1
                guard failures < transport.configuration.retryPolicy.maximumAttempts else { throw error }
                offset = try await resumeOffset(session) ?? offset
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
                    failures += 1
                    guard failures < transport.configuration.retryPolicy.maximumAttempts else { throw error }
                    offset = try await resumeOffset(session) ?? range.upperBound
                    progress.report(offset)
                    continue
                }
                let next = try OneDriveFragmentPlan.firstExpected(status.nextExpectedRanges ?? [], size: size)
                offset = next ?? range.upperBound
                progress.report(offset)
                failures = 0
            case 404:
                throw Expired()
            case 416:
                // Graph already holds (part of) this fragment: ask where to go on.
                failures += 1
                guard failures < transport.configuration.retryPolicy.maximumAttempts,
                    let next = try await resumeOffset(session)
                else {
                    throw ServiceError(
                        .server, "OneDrive's upload session refused its fragments (HTTP 416) and expects none.")
                }
                offset = next
            default:
                let error = OneDriveErrorMapping.error(
                    status: response.status, headers: response.headers, body: response.body,
                    action: "an upload fragment", secrets: [session.absoluteString])
                failures += 1
                guard RetryPolicy.isTransient(error), failures < transport.configuration.retryPolicy.maximumAttempts
                else { throw error }
                if let wait = error.retryAfter { try await Task.sleep(for: wait) }
                offset = try await resumeOffset(session) ?? offset
            }
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
