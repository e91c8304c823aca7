import MockSupport

/// A fault of the matrix, injected once into the operation's main route.
public enum MatrixFault: String, CaseIterable, Sendable, Hashable {
    case serverError = "503 once"
    case rateLimited = "429 + Retry-After"
    case droppedMidBody = "dropped mid-body"
    case tokenExpired = "token expired"
    case stall = "stall past timeout"
    case corruptedBody = "corrupted body"

    /// The client's stall timeout in matrix runs; the stall fault holds the answer longer.
    public static let clientStallTimeout: Duration = .seconds(2)

    /// The rule that injects this fault once into a route.
    /// - Parameters:
    ///   - route: The route's path pattern and method.
    ///   - sendsBody: Whether the operation's request to the route carries content (an upload),
    ///     so a dropped connection cuts the request rather than the answer.
    ///   - bodySize: The size of that content, or of the answer's body for a download.
    func rule(route: (path: String, method: String), sendsBody: Bool, bodySize: Int) -> FaultRule {
        let fault: Fault =
            switch self {
            case .serverError: .status(503)
            case .rateLimited: .status(429, retryAfter: 1)
            case .droppedMidBody:
                sendsBody ? .dropAfterRequestBytes(max(1, bodySize / 3)) : .dropAfterResponseBytes(max(8, bodySize / 2))
            case .tokenExpired: .expireTokens
            case .stall: .delay(milliseconds: 4_000)
            case .corruptedBody: .corruptBody
            }
        return FaultRule(route: route.path, method: route.method, times: 1, fault: fault)
    }
}
