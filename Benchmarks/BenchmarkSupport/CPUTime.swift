import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time (user + system), in seconds. A finished child's own comes from `wait4`, through
/// `ChildProcess` (``MeasuredProcess`` reports it).
package enum CPUTime {
    /// This process's CPU time so far (`getrusage`).
    package static func own() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The CPU time of every living descendant of this process (the servers a benchmark started:
    /// a mock, moto, Apache and its workers), with what each has reaped (`cutime`, `cstime`:
    /// Apache's finished workers count toward their parent), read from `/proc`.
    package static func livingDescendants() -> Double {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard ticksPerSecond > 0,
            let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc")
        else { return 0 }
        var parent: [Int32: Int32] = [:]
        var ticks: [Int32: Double] = [:]
        for name in names {
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (comm)": state ppid ... utime(14) stime(15) cutime(16) cstime(17), 1-based.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 15, let ppid = Int32(fields[1]) else { continue }
            parent[pid] = ppid
            ticks[pid] = fields[11...14].compactMap { Double($0) }.reduce(0, +)
        }
        let me = getpid()
        var total = 0.0
        for (pid, used) in ticks {
            var ancestor = parent[pid]
            var depth = 0
            while let current = ancestor, current > 1, current != me, depth < 64 {
                ancestor = parent[current]
                depth += 1
            }
            if ancestor == me { total += used }
        }
        return total / ticksPerSecond
    }
}
