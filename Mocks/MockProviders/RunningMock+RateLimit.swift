import MockSupport

extension RunningMock {
    /// Makes the mock answer every request to `route` with HTTP 429 and `Retry-After: 0` from now
    /// on, as a provider that rate-limits that route for good, and forgets the requests it logged
    /// so far.
    /// - Parameters:
    ///   - route: The path, `*` standing for any run of characters (as in ``FaultRule/route``).
    ///   - method: The method refused; `nil` for any.
    /// - Returns: How many requests the route has received since the call; each use counts anew.
    public func rateLimitForGood(route: String, method: String? = nil) -> @Sendable () -> Int {
        let rule = FaultRule(route: route, method: method, times: 0, fault: .status(429, retryAfter: 0))
        _ = server.faults.add(rule)
        let log = server.requestLog
        log.clear()
        return { log.entries { rule.matches(method: $0.method, path: $0.path) }.count }
    }
}
