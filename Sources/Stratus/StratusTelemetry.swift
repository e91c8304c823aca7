public import CoreMetrics
public import Tracing

/// Where Stratus sends its metrics and spans, and which backend the work in progress serves.
///
/// Stratus reports through swift-metrics and swift-distributed-tracing: with neither bootstrapped
/// (the default) every metric and span is a no-op. An app that bootstraps `MetricsSystem` or
/// `InstrumentationSystem` gets Stratus's figures with nothing more to do.
///
/// The telemetry in force is a task-local value, so a part of an app (or a test running beside
/// others in one process) can send its figures elsewhere without touching the global systems:
///
/// ```swift
/// let telemetry = StratusTelemetry(metricsFactory: myFactory, tracer: myTracer)
/// try await StratusTelemetry.$current.withValue(telemetry) {
///     try await store.sync()
/// }
/// ```
///
/// Spans and metrics carry the backend's name (such as `Dropbox`) and the operation, never a
/// path, a file name or a credential.
public struct StratusTelemetry: Sendable {
    /// The metrics factory to use, or `nil` for the global `MetricsSystem.factory`.
    public var metricsFactory: (any MetricsFactory)?
    /// The tracer to use, or `nil` for the global `InstrumentationSystem.tracer`.
    public var tracer: (any Tracer)?
    /// The backend the work in progress serves, such as `Dropbox`: a dimension of the HTTP and
    /// retry metrics. Set by the adapters' call wrapper; `nil` outside a service call.
    public var backend: String?

    /// Creates a telemetry configuration.
    /// - Parameters:
    ///   - metricsFactory: The metrics factory, or `nil` for the global one.
    ///   - tracer: The tracer, or `nil` for the global one.
    ///   - backend: The backend the work serves, if known.
    public init(metricsFactory: (any MetricsFactory)? = nil, tracer: (any Tracer)? = nil, backend: String? = nil) {
        self.metricsFactory = metricsFactory
        self.tracer = tracer
        self.backend = backend
    }

    /// The telemetry in force for the current task (and the tasks it starts): the global
    /// systems unless a caller bound another value.
    @TaskLocal public static var current = StratusTelemetry()

    /// The metrics factory in force: ``metricsFactory`` or the global one.
    public var factory: any MetricsFactory { metricsFactory ?? MetricsSystem.factory }

    /// The tracer in force: ``tracer`` or the global one.
    public var activeTracer: any Tracer { tracer ?? InstrumentationSystem.tracer }

    /// The value of the `backend` dimension: ``backend``, or `unknown` outside a service call.
    public var backendDimension: String { backend ?? "unknown" }

    /// Adds to a counter of the factory in force.
    /// - Parameters:
    ///   - label: The counter's name, such as `stratus_retries_total`.
    ///   - amount: How much to add.
    ///   - dimensions: The counter's dimensions.
    public func increment(_ label: String, by amount: Int64 = 1, dimensions: [(String, String)] = []) {
        Counter(label: label, dimensions: dimensions, factory: factory).increment(by: amount)
    }

    /// Sets a gauge of the factory in force.
    /// - Parameters:
    ///   - label: The gauge's name, such as `stratus_sync_conflicts`.
    ///   - value: The gauge's new value.
    ///   - dimensions: The gauge's dimensions.
    public func set(_ label: String, to value: Int, dimensions: [(String, String)] = []) {
        Gauge(label: label, dimensions: dimensions, factory: factory).record(value)
    }

    /// Records a duration in a timer of the factory in force.
    /// - Parameters:
    ///   - label: The timer's name, such as `stratus_sync_run_duration_seconds`.
    ///   - duration: The duration.
    ///   - dimensions: The timer's dimensions.
    public func record(_ label: String, duration: Duration, dimensions: [(String, String)] = []) {
        let parts = duration.components
        let nanoseconds = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let total = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue &+ parts.attoseconds / 1_000_000_000
        CoreMetrics.Timer(label: label, dimensions: dimensions, factory: factory).recordNanoseconds(total)
    }

    /// Runs `body` in a span of the tracer in force, ending it when `body` returns or throws.
    ///
    /// An error marks the span failed, without a description: error messages may name paths.
    /// `body` may add what is safe to say (an error code) as an attribute.
    /// - Parameters:
    ///   - name: The span's operation name, such as `stratus.sync.run`.
    ///   - kind: The span's kind.
    ///   - attributes: The span's attributes; never a path, a file name or a secret.
    ///   - isolation: The caller's actor, which `body` runs on.
    ///   - body: The work; it receives the span to add attributes as it learns them.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withSpan<Result>(
        _ name: String,
        ofKind kind: SpanKind = .internal,
        attributes: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (any Span) async throws -> Result
    ) async throws -> Result {
        let span = activeTracer.startSpan(name, context: ServiceContext.current ?? .topLevel, ofKind: kind)
        for (key, value) in attributes { span.attributes[key] = value }
        defer { span.end() }
        do {
            return try await ServiceContext.$current.withValue(span.context) { try await body(span) }
        } catch {
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }
}
