/// How ``AutomaticSync`` schedules syncs: how soon after a local write it pushes, how long it
/// waits on the service, and how it backs off after a failure.
public struct AutomaticSyncConfiguration: Sendable {
    /// How long after the last local write a push waits, so that a burst of writes goes up in
    /// one sync. Default 0.5 seconds.
    public var debounce: Duration
    /// The longest a local write waits for its push while writes keep coming. Default 5
    /// seconds.
    public var maximumDelay: Duration
    /// How long one ``/Stratus/Service/waitForChanges(after:timeout:)`` call may wait before it
    /// is made again. Default 10 minutes.
    public var waitTimeout: Duration
    /// The pause before the first retry after a failure; it doubles with each failure in a row.
    /// Default 1 second.
    public var firstRetry: Duration
    /// The longest pause between retries after failures other than being offline. Default 60
    /// seconds.
    public var maximumRetry: Duration
    /// The longest pause between attempts while the service cannot be reached, so that a
    /// device back online syncs soon. Default 10 seconds.
    public var maximumOfflineRetry: Duration
    /// The largest share of a retry pause added or taken away at random (0 to 0.5), so that
    /// devices do not retry in step. Default 0.2.
    public var jitter: Double
    /// How long a graceful shutdown lets a running sync (and the last push of pending writes)
    /// go on before it is cancelled, which is safe: what it did stays done. Default 10 seconds.
    public var shutdownGrace: Duration

    /// Creates a configuration; every setting has a default.
    /// - Parameters:
    ///   - debounce: The pause after the last local write before a push.
    ///   - maximumDelay: The longest a write waits while writes keep coming.
    ///   - waitTimeout: The longest one wait on the service.
    ///   - firstRetry: The first pause after a failure.
    ///   - maximumRetry: The longest pause after failures.
    ///   - maximumOfflineRetry: The longest pause while offline.
    ///   - jitter: The random share of each pause.
    ///   - shutdownGrace: How long a graceful shutdown waits for a running sync.
    public init(
        debounce: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(5),
        waitTimeout: Duration = .seconds(600),
        firstRetry: Duration = .seconds(1),
        maximumRetry: Duration = .seconds(60),
        maximumOfflineRetry: Duration = .seconds(10),
        jitter: Double = 0.2,
        shutdownGrace: Duration = .seconds(10)
    ) {
        self.debounce = max(.zero, debounce)
        self.maximumDelay = max(self.debounce, maximumDelay)
        self.waitTimeout = max(.seconds(1), waitTimeout)
        self.firstRetry = max(.milliseconds(10), firstRetry)
        self.maximumRetry = max(self.firstRetry, maximumRetry)
        self.maximumOfflineRetry = max(self.firstRetry, maximumOfflineRetry)
        self.jitter = jitter.isFinite ? min(0.5, max(0, jitter)) : 0.2
        self.shutdownGrace = max(.zero, shutdownGrace)
    }
}
