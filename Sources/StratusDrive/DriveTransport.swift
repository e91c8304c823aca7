import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP
import StratusOAuth

/// Sends Drive API requests with authorization, retries and error mapping.
struct DriveTransport: Sendable {
    let http: StratusHTTPClient
    let credentials: DriveCredentials
    let configuration: DriveConfiguration

    /// `<apiURL>/drive/v3/<path>?<query>`.
    func apiURL(_ path: String, _ query: [(String, String)] = []) -> URL {
        DriveTransport.url(configuration.apiURL, "drive/v3/" + path, query)
    }

    /// `<uploadURL>/upload/drive/v3/<path>?<query>`.
    func uploadURL(_ path: String, _ query: [(String, String)] = []) -> URL {
        DriveTransport.url(configuration.uploadURL, "upload/drive/v3/" + path, query)
    }

    /// A URL with every query value percent-encoded except RFC 3986's unreserved characters
    /// (so `+`, `&`, `=` and `'` inside a `q` survive every server's decoding).
    static func url(_ base: URL, _ path: String, _ query: [(String, String)]) -> URL {
        let url = base.appending(path: path)
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.percentEncodedQuery = PercentEncoding.query(query.map { (name: $0.0, value: $0.1) })
        return components.url ?? url
    }

    /// Sends a request and returns its answer when the status is 2xx or in `accepted`; every
    /// other status, and transport failures, are thrown as ``/Stratus/ServiceError`` after the
    /// retries `repetition` allows.
    /// - Parameters:
    ///   - action: The method's name for messages, such as `files.get`.
    ///   - repetition: Whether the request may be repeated.
    ///   - accepted: Non-2xx statuses that are answers rather than errors (such as 308).
    ///   - destination: Where the body goes.
    ///   - progress: Transfer progress.
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
            makeRequest, origins: [configuration.apiURL, configuration.uploadURL], http: http, into: destination,
            action: "The Drive request \(action)", progress: progress, retryPolicy: configuration.retryPolicy,
            repetition: repetition, accepted: accepted
        ) { response, secrets in
            DriveErrorMapping.error(
                status: response.status, headers: response.headers, body: response.body, action: action,
                secrets: secrets)
        }
    }

    /// Sends a request with an optional JSON body and decodes the JSON answer.
    func json<Result: DriveAnswer>(
        _ action: String,
        _ method: StratusHTTPMethod,
        _ url: URL,
        body: Data? = nil,
        as type: Result.Type,
        repetition: Repetition = .safe
    ) async throws -> Result {
        try await decoded(action, as: type, repetition: repetition) { DriveTransport.request(method, url, json: body) }
            .result
    }

    /// Sends a request and decodes its JSON answer, keeping the answer for its headers. A safe
    /// request whose answer cannot be read is sent once more (an answer damaged on the way
    /// rarely is twice), within the retry policy's attempts.
    func decoded<Result: DriveAnswer>(
        _ action: String,
        as type: Result.Type,
        repetition: Repetition = .safe,
        _ makeRequest: @escaping @Sendable () throws -> StratusHTTPRequest
    ) async throws -> (result: Result, response: StratusHTTPResponse) {
        try await configuration.retryPolicy.run(repetition) { _ in
            try await send(action, repetition: .never, makeRequest)
        } read: { response in
            (try DriveTransport.decode(type, from: response.body, action: action), response)
        }
    }

    /// A request with an optional JSON body.
    static func request(_ method: StratusHTTPMethod, _ url: URL, json: Data?) -> StratusHTTPRequest {
        var request = StratusHTTPRequest(method: method, url: url)
        if let json {
            request.headers.set("Content-Type", "application/json; charset=UTF-8")
            request.body = .bytes(json)
        }
        return request
    }

    /// Reads a JSON answer; anything unreadable is ``/Stratus/ServiceError/Code/invalidResponse``.
    static func decode<Result: DriveAnswer>(_ type: Result.Type, from data: Data, action: String) throws -> Result {
        do {
            return try DriveJSON.decode(type, from: data)
        } catch {
            throw DriveErrorMapping.undecodable(action, error.description)
        }
    }
}
