import Tracing

extension StratusTelemetry {
    /// The span every ``Service`` call runs in.
    public static let serviceCallSpanName = "stratus.service.call"

    /// Runs one ``Service`` call observed, as every adapter's calls are: in a span named
    /// ``serviceCallSpanName`` with the attributes `stratus.backend`, `stratus.operation` and,
    /// when it fails, `stratus.error.code` (never a path, a file name or a message), and with
    /// `backend` as the ``backend`` of the metrics it causes.
    /// - Parameters:
    ///   - backend: The backend's name, such as `Dropbox` or `local`.
    ///   - function: The requirement being served as `#function` gives it (`upload(from:to:options:)`);
    ///     its base name is the operation.
    ///   - isolation: The caller's actor, which `body` runs on.
    ///   - body: The call.
    /// - Returns: What the call returns.
    /// - Throws: What the call throws.
    public static func observeServiceCall<Result: Sendable>(
        backend: String,
        function: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        var telemetry = current
        telemetry.backend = backend
        let operation = String(function.prefix { $0 != "(" })
        return try await $current.withValue(telemetry) {
            try await telemetry.withSpan(
                serviceCallSpanName, ofKind: .client,
                attributes: ["stratus.backend": backend, "stratus.operation": operation]
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
