import Stratus

/// The metrics of the HTTP requests a ``StratusHTTPClient`` sends: every request passes here
/// once, whichever adapter (or OAuth flow) sent it, so the figures count what went on the wire.
///
/// - `stratus_http_requests_total` (counter) and `stratus_http_request_duration_seconds`
///   (timer), with the dimensions `backend`, `method` and `status_class` (`2xx`, `4xx`, ...,
///   or `error` when no answer came);
/// - `stratus_http_sent_bytes_total` and `stratus_http_received_bytes_total` (counters) with
///   the dimension `backend`: request body bytes, and response body bytes (for
///   ``StratusHTTPClient/execute(_:into:progress:)`` only: a streamed body is read after the
///   request is counted).
///
/// The backend is the one of ``/Stratus/StratusTelemetry/current`` (set by the adapters' call
/// wrapper), `unknown` outside a service call.
enum HTTPRequestMetrics {
    /// Records one request.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - status: The answer's status, or `nil` when none came.
    ///   - started: When the request was handed to libcurl.
    ///   - sent: The request body bytes, if known.
    ///   - received: The response body bytes, if known.
    static func record(
        method: StratusHTTPMethod, status: Int?, since started: ContinuousClock.Instant, sent: Int64?,
        received: Int64?
    ) {
        let telemetry = StratusTelemetry.current
        let backend = telemetry.backendDimension
        let statusClass = status.map { "\($0 / 100)xx" } ?? "error"
        let dimensions = [("backend", backend), ("method", method.rawValue), ("status_class", statusClass)]
        telemetry.increment("stratus_http_requests_total", dimensions: dimensions)
        telemetry.record(
            "stratus_http_request_duration_seconds", duration: ContinuousClock.now - started, dimensions: dimensions)
        if let sent, sent > 0 {
            telemetry.increment("stratus_http_sent_bytes_total", by: sent, dimensions: [("backend", backend)])
        }
        if let received, received > 0 {
            telemetry.increment("stratus_http_received_bytes_total", by: received, dimensions: [("backend", backend)])
        }
    }
}
