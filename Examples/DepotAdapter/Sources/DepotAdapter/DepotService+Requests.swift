import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

extension DepotService {
    /// The URL of a file: `/files/` and the path, each name percent-encoded.
    func fileURL(_ path: RemotePath) -> URL {
        endpoint("files/" + PercentEncoding.encodePath(path.string))
    }

    /// The URL of a route with a query.
    func endpoint(_ route: String, query: [(name: String, value: String)] = []) -> URL {
        var text = configuration.baseURL.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += "/" + route
        if !query.isEmpty { text += "?" + PercentEncoding.query(query) }
        // Every piece was percent-encoded above, so the text is a valid URL.
        return URL(string: text) ?? configuration.baseURL
    }

    /// A request with the API key.
    func makeRequest(_ method: StratusHTTPMethod, _ url: URL, headers: StratusHTTPHeaders = [:]) -> StratusHTTPRequest {
        var request = StratusHTTPRequest(method: method, url: url, headers: headers)
        request.headers.set("Authorization", "Bearer \(configuration.apiKey)")
        return request
    }

    /// Sends a request once, for one attempt of a retry loop, and returns the answer whatever
    /// its status.
    /// - Throws: The ``Stratus/ServiceError`` for a request that got no complete answer.
    func send(
        _ request: StratusHTTPRequest,
        into destination: HTTPResponseDestination = .memory(limit: 4 * 1_048_576),
        progress: (@Sendable (HTTPProgress) -> Void)? = nil,
        action: String
    ) async throws -> StratusHTTPResponse {
        do {
            return try await http.execute(request, into: destination, progress: progress)
        } catch {
            throw ServiceError.transportFailure(error, action: action)
        }
    }

    /// Sends a request once and decodes a successful JSON answer.
    func sendJSON<Answer: Decodable & Sendable>(
        _ request: StratusHTTPRequest, as type: Answer.Type, action: String
    ) async throws -> Answer {
        let response = try await send(request, action: action)
        guard response.isSuccess else { throw failure(response, action: action) }
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw ServiceError(
                .invalidResponse, "Depot answered \(action) with JSON that is not what the protocol says: \(error)")
        }
    }

    /// The error for an answer that is not a success: the kit's mapping of the status (with the
    /// provider's text scrubbed of the API key, and `Retry-After` in either form), refined by
    /// the protocol's own error code where it says more.
    func failure(_ response: StratusHTTPResponse, action: String) -> ServiceError {
        var error = ServiceError.httpFailure(
            status: response.status, headers: response.headers, body: response.body,
            service: Self.name, action: action, secrets: [configuration.apiKey]
        )
        let body = try? JSONDecoder().decode(DepotErrorBody.self, from: response.body)
        let refined: (ServiceError.Code, String)? =
            switch body?.error ?? "" {
            case "not_found": (.notFound, "Nothing is at that path on Depot (\(action)).")
            case "precondition_failed":
                (.conflict, "The file changed or exists on Depot, so \(action) was refused; nothing was written.")
            case "path_conflict": (.conflict, "A folder or a file is in the way of \(action) on Depot.")
            case "digest_mismatch":
                (
                    .integrityMismatch,
                    "Depot received content whose SHA-256 differs from what was sent for \(action); nothing was stored."
                )
            case "invalid_cursor": (.invalidChangeToken, "Depot no longer accepts the change token (\(action)).")
            case "invalid_path": (.invalidPath, "Depot refused the path of \(action).")
            case "too_large": (.payloadTooLarge, "The file is larger than Depot takes (\(action)).")
            default: nil
            }
        if let (code, message) = refined {
            error.code = code
            error.message = message
        }
        return error
    }
}

/// The body of a Depot error answer.
struct DepotErrorBody: Decodable {
    var error: String
    var message: String?
}
