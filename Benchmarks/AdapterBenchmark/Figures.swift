import BenchmarkSupport
import Foundation

/// Figures from process outcomes: a child's own timing and VmHWM when it printed a report
/// (Stratus and the SDK scripts), else the wall time and sampled VmHWM (curl, rclone); the CPU
/// figures always come from the process's accounting (`ProcessOutcome`).
enum Figures {
    static func seconds(_ outcome: ProcessOutcome) -> Double {
        outcome.report.seconds ?? outcome.wallSeconds
    }

    private static func figure(_ outcome: ProcessOutcome, value: Double) -> Figure {
        Figure(
            value: value, peakRSSKiB: outcome.report.peakRSSKiB ?? outcome.sampledPeakRSSKiB,
            cpuSeconds: outcome.cpuSeconds, serverCPUSeconds: outcome.serverCPUSeconds,
            wallSeconds: outcome.wallSeconds)
    }

    /// MB/s (10^6 bytes per second) for `bytes` moved.
    static func rate(_ outcome: Result<ProcessOutcome, BenchmarkFailure>, bytes: Int64) -> Result<
        Figure, BenchmarkFailure
    > {
        outcome.map { figure($0, value: Double(bytes) / seconds($0) / 1e6) }
    }

    /// The report's `count` per second, or `count` given here for clients that print no report.
    static func perSecond(_ outcome: Result<ProcessOutcome, BenchmarkFailure>, count given: Int? = nil) -> Result<
        Figure, BenchmarkFailure
    > {
        outcome.flatMap { result in
            guard let count = result.report.count ?? given else {
                return .failure(BenchmarkFailure("the report has no count"))
            }
            return .success(figure(result, value: Double(count) / seconds(result)))
        }
    }

    static func duration(_ outcome: Result<ProcessOutcome, BenchmarkFailure>) -> Result<Figure, BenchmarkFailure> {
        outcome.map { figure($0, value: seconds($0)) }
    }
}

extension Figures {
    /// Fails unless the downloaded file has the expected size; removes it either way.
    static func checkedSize(_ outcome: Result<ProcessOutcome, BenchmarkFailure>, file: URL, expected: Int64)
        -> Result<ProcessOutcome, BenchmarkFailure>
    {
        defer { try? FileManager.default.removeItem(at: file) }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value
        guard case .success = outcome else { return outcome }
        guard size == expected else {
            return .failure(
                BenchmarkFailure("the downloaded file has \(size.map(String.init) ?? "no") bytes, not \(expected)"))
        }
        return outcome
    }
}
