import Hummingbird

extension Router<BasicRequestContext> {
    /// Puts what every mock has in front of its provider's routes: the request log, fault
    /// injection, and the control routes (`/__stratus/...`, see ``FaultControlRoutes``).
    ///
    /// Call it first, on a fresh router: middleware applies only to routes added after it.
    /// ```swift
    /// let router = Router()
    /// router.addMockInfrastructure(requestLog: log, faults: faults, recordedHeaders: ["if-match", "range"])
    /// router.put("/files/**") { request, context in ... }
    /// ```
    /// - Parameters:
    ///   - requestLog: Where requests are recorded.
    ///   - faults: The fault rules.
    ///   - recordedHeaders: The headers the log keeps, by name in any case (secret values are
    ///     redacted, see ``SecretRedaction``); by default
    ///     ``RequestLogMiddleware/defaultRecordedHeaders``.
    public func addMockInfrastructure(
        requestLog: RequestLog,
        faults: FaultInjector,
        recordedHeaders: Set<String> = RequestLogMiddleware<BasicRequestContext>.defaultRecordedHeaders
    ) {
        add(middleware: RequestLogMiddleware(log: requestLog, recordedHeaders: recordedHeaders))
        add(middleware: FaultInjectionMiddleware(injector: faults))
        FaultControlRoutes.add(to: self, injector: faults, requestLog: requestLog)
    }
}
