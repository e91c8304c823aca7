/// What a child process measured, printed as `key=value` lines with its peak memory last.
struct ChildReport: Sendable {
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
        var lines = ["seconds=\(seconds)", "bytes=\(bytes)", "requests=\(requests)"]
        if let sha256 { lines.append("sha256=\(sha256)") }
        if let peak = PeakMemory.ownHighWaterMarkKiB() { lines.append("peak-rss-kib=\(peak)") }
        return lines.joined(separator: "\n")
    }

    /// Reads a report from a child's standard output.
    init(parsing output: String) throws(BenchmarkError) {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let seconds = fields["seconds"].flatMap(Double.init),
            let bytes = fields["bytes"].flatMap({ Int64($0) }),
            let requests = fields["requests"].flatMap({ Int($0) })
        else {
            throw BenchmarkError("the child process printed no complete report:\n\(output)")
        }
        self.init(seconds: seconds, bytes: bytes, requests: requests, sha256: fields["sha256"])
        peakRSSKiB = fields["peak-rss-kib"].flatMap { Int($0) }
    }
}
