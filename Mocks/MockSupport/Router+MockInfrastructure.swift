import Hummingbird

extension Router<BasicRequestContext> {
    /// Puts what every mock has in front of its provider's routes: the request log, fault
    /// injection, and the control routes (`/__stratus/...`, see ``FaultControlRoutes``).
    ///
    /// Call it first, on a fresh router: middleware applies only to routes added after it.
    /// - Parameters:
    ///   - requestLog: Where requests are recorded.
    ///   - faults: The fault rules.
    public func addMockInfrastructure(requestLog: RequestLog, faults: FaultInjector) {
        add(middleware: RequestLogMiddleware(log: requestLog))
        add(middleware: FaultInjectionMiddleware(injector: faults))
        FaultControlRoutes.add(to: self, injector: faults, requestLog: requestLog)
    }
}
