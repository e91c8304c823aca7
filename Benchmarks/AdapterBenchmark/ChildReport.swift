/// What a measured process prints: `key=value` lines (`seconds`, `count`, `bytes`,
/// `peak-rss-kib`, and workload-specific ones such as `id` or `token`).
struct ChildReport: Sendable {
    var fields: [String: String]

    init(parsing output: String) {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.fields = fields
    }

    var seconds: Double? { fields["seconds"].flatMap(Double.init) }
    var count: Int? { fields["count"].flatMap { Int($0) } }
    var bytes: Int64? { fields["bytes"].flatMap { Int64($0) } }
    var peakRSSKiB: Int? { fields["peak-rss-kib"].flatMap { Int($0) } }

    /// The report's lines, with this process's peak memory read now (call it last).
    static func render(_ fields: [(String, String)]) -> String {
        var lines = fields.map { "\($0.0)=\($0.1)" }
        if let peak = PeakMemory.kib() { lines.append("peak-rss-kib=\(peak)") }
        return lines.joined(separator: "\n")
    }
}
