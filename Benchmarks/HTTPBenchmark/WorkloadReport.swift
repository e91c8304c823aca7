import BenchmarkSupport

/// What a client's child process measured on one workload, printed as a ``ChildReport`` (its
/// peak memory last).
struct WorkloadReport: Sendable {
    /// The workload's duration inside the child: client set-up, transfers and shut-down.
    var seconds: Double
    /// Body bytes moved (downloaded, uploaded, or received over all small GETs).
    var bytes: Int64
    /// Requests completed.
    var requests: Int
    /// The SHA-256 of a downloaded body, when the client computed one.
    var sha256: String?
    /// The child's peak resident set (VmHWM), read just before it printed the report.
    var peakRSSKiB: Int?

    init(seconds: Double, bytes: Int64, requests: Int, sha256: String? = nil) {
        self.seconds = seconds
        self.bytes = bytes
        self.requests = requests
        self.sha256 = sha256
    }

    /// The report's lines; the peak memory is read now, so call this last.
    func render() -> String {
        var fields = [("seconds", "\(seconds)"), ("bytes", "\(bytes)"), ("requests", "\(requests)")]
        if let sha256 { fields.append(("sha256", sha256)) }
        return ChildReport.render(fields)
    }

    /// Reads a report from a child's standard output.
    init(parsing output: String) throws(BenchmarkFailure) {
        let report = ChildReport(parsing: output)
        guard let seconds = report.seconds, let bytes = report.bytes,
            let requests = report.fields["requests"].flatMap({ Int($0) })
        else {
            throw BenchmarkFailure("the child process printed no complete report:\n\(output)")
        }
        self.init(seconds: seconds, bytes: bytes, requests: requests, sha256: report.fields["sha256"])
        peakRSSKiB = report.peakRSSKiB
    }
}
