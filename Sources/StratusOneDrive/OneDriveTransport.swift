import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP
import StratusOAuth

/// Sends Graph requests with authorization, retries and error mapping, and the requests that
/// must go without authorization (upload-session fragments, pre-authenticated downloads).
struct OneDriveTransport: Sendable {
    let http: StratusHTTPClient
    let credentials: OneDriveCredentials
    let configuration: OneDriveConfiguration
    let address: OneDriveAddress

    /// Sends an authorized Graph request and returns its answer when the status is 2xx or in
    /// `accepted`; every other status, and transport failures, are thrown as
    /// ``/Stratus/ServiceError`` after the retries `repetition` allows. The bearer token goes
    /// only to the origin of ``OneDriveConfiguration/apiURL``.
    /// - Parameters:
    ///   - action: What is asked, for messages, such as `GET item`.
    ///   - repetition: Whether the request may be repeated.
    ///   - accepted: Non-2xx statuses that are answers rather than errors (such as 302).
    ///   - makeRequest: Builds the request; called again for each attempt.
    func send(
        _ action: String,
        repetition: Repetition,
        accepted: Set<Int> = [],
        destination: HTTPResponseDestination = .memory(limit: 16 * 1_048_576),
        progress: (@Sendable (HTTPProgress) -> Void)? = nil,
        _ makeRequest: @escaping @Sendable () throws -> StratusHTTPRequest
    ) async throws -> StratusHTTPResponse {
        try await credentials.send(
            makeRequest, origins: [configuration.apiURL], http: http, into: destination,
            action: "The OneDrive request \(action)", progress: progress, retryPolicy: configuration.retryPolicy,
            repetition: repetition, accepted: accepted
        ) { response, secrets in
            OneDriveErrorMapping.error(
                status: response.status, headers: response.headers, body: response.body, action: action,
                secrets: secrets)
        }
    }

    /// Sends one request with no `Authorization` header at all (an upload session's URL or a
    /// pre-authenticated download URL, which carry their own authorization in the URL), once;
    /// transport failures become ``/Stratus/ServiceError``, statuses are left to the caller.
    /// The URL itself is a secret: it never appears in messages.
    func sendWithoutAuthorization(
        _ request: StratusHTTPRequest,
        action: String,
        into destination: HTTPResponseDestination = .memory(limit: 1_048_576),
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws -> StratusHTTPResponse {
        var request = request
        request.headers.remove("Authorization")
        do {
            return try await http.execute(request, into: destination, progress: progress)
        } catch {
            throw ServiceError.transportFailure(error, action: action)
        }
    }

    /// Sends an authorized request with an optional JSON body and decodes the JSON answer.
    func json<Result: Decodable & Sendable>(
        _ action: String,
        _ method: StratusHTTPMethod,
        _ url: URL,
        body: Data? = nil,
        headers: [(String, String)] = [],
        as type: Result.Type,
        repetition: Repetition = .safe
    ) async throws -> Result {
        try await configuration.retryPolicy.run(repetition) { _ in
            try await send(action, repetition: .never) {
                var request = StratusHTTPRequest(method: method, url: url)
                for (name, value) in headers { request.headers.set(name, value) }
                if let body {
                    request.headers.set("Content-Type", "application/json")
                    request.body = .bytes(body)
                }
                return request
            }
        } read: { response in
            try OneDriveJSON.decode(type, from: response.body, action: action)
        }
    }
}
