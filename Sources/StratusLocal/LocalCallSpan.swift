import Stratus
import Tracing

/// The span each call of ``LocalService`` runs in, as every HTTP adapter's call does: named
/// `stratus.service.call`, with the attributes `stratus.backend` (`local`), `stratus.operation`
/// (the ``/Stratus/Service`` requirement, such as `upload`) and, when it fails,
/// `stratus.error.code`. No path is ever an attribute.
enum LocalCallSpan {
    /// The span's operation name, shared with the HTTP adapters.
    static let name = "stratus.service.call"
    /// The backend's name in spans.
    static let backend = "local"

    /// Runs a call in its span.
    /// - Parameters:
    ///   - function: The calling function, such as `metadata(of:)`; its base name is the operation.
    ///   - body: The call.
    /// - Returns: What the call returns.
    static func observe<Result: Sendable>(
        function: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        var telemetry = StratusTelemetry.current
        telemetry.backend = backend
        let operation = String(function.prefix { $0 != "(" })
        return try await StratusTelemetry.$current.withValue(telemetry) {
            try await telemetry.withSpan(
                name, attributes: ["stratus.backend": backend, "stratus.operation": operation]
            ) { span in
                do {
                    return try await body()
                } catch let error as ServiceError {
                    span.attributes["stratus.error.code"] = "\(error.code)"
                    throw error
                }
            }
        }
    }
}
