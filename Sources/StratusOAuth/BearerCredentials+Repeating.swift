public import Foundation
public import Stratus
public import StratusAdapterKit
public import StratusHTTP

extension BearerCredentials {
    /// Sends a request under a retry policy and sorts its answer: the one request loop of a
    /// bearer-token adapter's transport.
    ///
    /// Each attempt checks for cancellation and sends the request once, through
    /// ``send(_:origins:http:into:action:progress:)`` (a refused token is refreshed once), or as
    /// it is when `authorizes` is `false`. A 2xx answer, or one whose status is in `accepted`, is
    /// returned. Any other answer goes to `failure` with these credentials' secrets, to be scrubbed
    /// from whatever the server says: the error it names is thrown, and repeated as `repetition`
    /// allows; when it names none, the answer is returned after all.
    ///
    /// ```swift
    /// let response = try await credentials.send(
    ///     makeRequest, origins: [configuration.apiURL], http: http, action: "The request to \(route)",
    ///     retryPolicy: configuration.retryPolicy, repetition: .safe
    /// ) { response, secrets in
    ///     MyErrorMapping.error(response, route: route, secrets: secrets)
    /// }
    /// ```
    /// - Parameters:
    ///   - makeRequest: Makes the request, without its `Authorization` header; called again for
    ///     each attempt, so a streamed body is made afresh.
    ///   - origins: The configured URLs whose origins may receive the token.
    ///   - http: The client to send it with.
    ///   - destination: Where the answer's body goes.
    ///   - action: What is being done, for messages, such as "The request to files/upload".
    ///   - progress: The HTTP progress callback, if any.
    ///   - authorizes: `false` for a request that carries its own credential and goes without
    ///     `Authorization` to any origin (such as Dropbox's long poll, whose cursor is the
    ///     credential); its transport failures are mapped all the same.
    ///   - retryPolicy: The adapter's retry policy.
    ///   - repetition: Which failures may be repeated.
    ///   - accepted: Statuses besides 2xx that are answers, returned without calling `failure`
    ///     (such as a resumable upload's 308).
    ///   - failure: The error for an answer that is neither 2xx nor accepted, given the answer
    ///     and the secrets to scrub; `nil` when the answer stands (such as an error the caller
    ///     reads itself).
    /// - Returns: The answer.
    /// - Throws: ``/Stratus/ServiceError``: what `failure` named, a transport failure, a refresh
    ///   failure, or `invalidResponse` for a request to another origin, after the retries
    ///   `repetition` allows; `CancellationError` when the task is cancelled.
    public func send(
        _ makeRequest: @Sendable () throws -> StratusHTTPRequest,
        origins: [URL],
        http: StratusHTTPClient,
        into destination: HTTPResponseDestination = .memory(limit: 16 * 1_048_576),
        action: String,
        progress: (@Sendable (HTTPProgress) -> Void)? = nil,
        authorizes: Bool = true,
        retryPolicy: RetryPolicy,
        repetition: Repetition,
        accepted: Set<Int> = [],
        failure: @Sendable (_ response: StratusHTTPResponse, _ secrets: [String]) -> ServiceError?
    ) async throws -> StratusHTTPResponse {
        try await retryPolicy.run(repetition) { _ in
            try Task.checkCancellation()
            let response: StratusHTTPResponse
            if authorizes {
                response = try await send(
                    makeRequest, origins: origins, http: http, into: destination, action: action, progress: progress)
            } else {
                let request = try makeRequest()
                do {
                    response = try await http.execute(request, into: destination, progress: progress)
                } catch {
                    throw ServiceError.transportFailure(error, action: action)
                }
            }
            if response.isSuccess || accepted.contains(response.status) { return response }
            if let error = failure(response, await knownSecrets()) { throw error }
            return response
        }
    }
}
