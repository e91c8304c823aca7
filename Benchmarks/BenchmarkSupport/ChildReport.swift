/// What a measured child process prints on standard output: `key=value` lines (`seconds`,
/// `count`, `bytes`, and workload-specific ones such as `sha256` or `id`), its peak memory
/// (`peak-rss-kib`) last.
package struct ChildReport: Sendable {
    /// Every `key=value` line, by key.
    package var fields: [String: String]

    /// Reads the `key=value` lines of `output`; other lines are passed over.
    package init(parsing output: String) {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.fields = fields
    }

    /// The workload's duration as the child timed it.
    package var seconds: Double? { fields["seconds"].flatMap(Double.init) }
    /// How many operations the child completed.
    package var count: Int? { fields["count"].flatMap { Int($0) } }
    /// How many body bytes the child moved.
    package var bytes: Int64? { fields["bytes"].flatMap { Int64($0) } }
    /// The child's peak resident memory, read just before it printed the report.
    package var peakRSSKiB: Int? { fields["peak-rss-kib"].flatMap { Int($0) } }

    /// The report's lines, with this process's peak memory read now (so call it last).
    package static func render(_ fields: [(String, String)]) -> String {
        var lines = fields.map { "\($0.0)=\($0.1)" }
        if let peak = PeakMemory.ownKiB() { lines.append("peak-rss-kib=\(peak)") }
        return lines.joined(separator: "\n")
    }
}
