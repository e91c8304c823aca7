public import Stratus
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
    /// Every adapter's calls pass here, so this is where they are observed
    /// (``/Stratus/StratusTelemetry/observeServiceCall(backend:function:isolation:_:)``: a span
    /// with the backend, the operation and any error code, and `service` as the backend of the
    /// HTTP and retry metrics the call causes).
    /// - Parameters:
    ///   - service: The service's name for messages, such as "Dropbox".
    ///   - function: The ``/Stratus/Service`` requirement being served, as `#function` gives it.
    ///   - body: The call.
    /// - Returns: What the call returns.
    /// - Throws: ``/Stratus/ServiceError`` only.
    public static func guarding<Result: Sendable>(
        _ service: String,
        function: String = #function,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await StratusTelemetry.observeServiceCall(backend: service, function: function) {
            try await mapUnexpected(service, body)
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
