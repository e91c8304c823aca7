import Stratus
import StratusHTTP

extension ServiceError {
    /// The error for an HTTP exchange that did not complete (no answer, or an answer cut short),
    /// shared by every adapter that sends requests through StratusHTTP.
    ///
    /// A ``ServiceError`` passes through unchanged. An ``HTTPClientError`` keeps its message and
    /// becomes `cancelled`, `timeout` (also for stalls), `localFile`, or `network`.
    /// - Parameters:
    ///   - error: What the HTTP client (or the code around it) threw.
    ///   - action: What was being done, such as "The request to files/upload".
    public static func transportFailure(_ error: any Error, action: String) -> ServiceError {
        if let error = error as? ServiceError { return error }
        guard let error = error as? HTTPClientError else {
            return ServiceError(.network, "\(action) did not complete.", underlying: SendableError(error))
        }
        let code: ServiceError.Code = switch error.code {
        case .cancelled: .cancelled
        case .timeout, .stalled: .timeout
        case .localFile: .localFile
        // A server that answers with more than the client keeps in memory is broken, not busy.
        case .bodyTooLarge: .invalidResponse
        default: .network
        }
        return ServiceError(code, "\(action) did not complete: \(error.message)", underlying: error)
    }
}
