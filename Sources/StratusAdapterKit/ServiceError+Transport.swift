import Stratus
import StratusHTTP
import Tracing

extension ServiceError {
    /// The error for an HTTP exchange that did not complete (no answer, or an answer cut short),
    /// shared by every adapter that sends requests through StratusHTTP.
    ///
    /// A ``/Stratus/ServiceError`` passes through unchanged, and a `CancellationError` becomes
    /// `cancelled`. An ``/StratusHTTP/StratusHTTPClientError`` keeps its message and becomes
    /// `cancelled` (also when the client was shut down), `timeout` (also for stalls), `localFile`, `invalidResponse` (a body larger
    /// than the client keeps, an answer that does not fit the request), or `network`.
    /// - Parameters:
    ///   - error: What the HTTP client (or the code around it) threw.
    ///   - action: What was being done, such as "The request to files/upload".
    public static func transportFailure(_ error: any Error, action: String) -> ServiceError {
        if let error = error as? ServiceError { return error }
        if error is CancellationError { return ServiceError(.cancelled, "\(action) was cancelled.") }
        guard let error = error as? StratusHTTPClientError else {
            return ServiceError(.network, "\(action) did not complete.", underlying: SendableError(error))
        }
        let code: ServiceError.Code =
            switch error.code {
            // The client's owner shut it down: the call was stopped on purpose, and trying it
            // again on the same client cannot work, so it is not a (transient) network failure.
            case .cancelled, .shutDown: .cancelled
            case .timeout, .stalled: .timeout
            case .localFile: .localFile
            // A server that answers with more than the client keeps in memory is broken, not busy.
            case .bodyTooLarge, .invalidResponse: .invalidResponse
            default: .network
            }
        return ServiceError(code, "\(action) did not complete: \(error.message)", underlying: error)
    }

    /// Runs an adapter's call so that it throws ``/Stratus/ServiceError`` only: a
    /// `CancellationError` becomes `cancelled`, anything else unexpected becomes `internalError`,
    /// which is not transient: a programming error is not retried.
    ///
    /// Every adapter's calls pass here, so this is where they are observed: the call runs in a
    /// span named `stratus.service.call` (with the attributes `stratus.backend` and, when given,
    /// `stratus.operation`, plus `stratus.error.code` when it fails), and with `service` as the
    /// ``/Stratus/StratusTelemetry/backend`` of the HTTP and retry metrics it causes.
    /// - Parameters:
    ///   - service: The service's name for messages, such as "Dropbox".
    ///   - operation: The ``/Stratus/Service`` requirement being served, such as `upload`, if the
    ///     adapter names it.
    ///   - body: The call.
    /// - Returns: What the call returns.
    /// - Throws: ``/Stratus/ServiceError`` only.
    public static func guarding<Result: Sendable>(
        _ service: String,
        operation: String? = nil,
        _ body: () async throws -> Result
    ) async throws -> Result {
        var telemetry = StratusTelemetry.current
        telemetry.backend = service
        var attributes = ["stratus.backend": service]
        attributes["stratus.operation"] = operation
        return try await StratusTelemetry.$current.withValue(telemetry) {
            try await telemetry.withSpan(ServiceCallSpan.name, ofKind: .client, attributes: attributes) { span in
                do {
                    return try await mapUnexpected(service, body)
                } catch let error as ServiceError {
                    span.attributes["stratus.error.code"] = "\(error.code)"
                    throw error
                }
            }
        }
    }

    /// Maps what a call threw to ``/Stratus/ServiceError``.
    private static func mapUnexpected<Result: Sendable>(
        _ service: String,
        _ body: () async throws -> Result
    ) async throws(ServiceError) -> Result {
        do {
            return try await body()
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw ServiceError(.cancelled, "The \(service) call was cancelled.")
        } catch {
            throw ServiceError(
                .internalError, "The \(service) call failed unexpectedly (a bug in Stratus; please report it): \(error)"
            )
        }
    }
}
