import Foundation
import Stratus
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on standard error (bytes, rate, time left), drawn only when standard
/// error is a terminal, at most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drewAnything = false
    }

    private let label: String
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    /// A bar for a transfer, or `nil` when standard error is not a terminal.
    static func forTransfer(_ label: String, enabled: Bool = true) -> ProgressBar? {
        guard enabled, isatty(STDERR_FILENO) == 1 else { return nil }
        return ProgressBar(label: label)
    }

    private init(label: String) {
        self.label = label
    }

    /// The handler to pass in transfer options.
    var handler: ProgressHandler {
        { [self] progress in report(progress) }
    }

    private func report(_ progress: TransferProgress) {
        let now = ContinuousClock.now
        let isLast = progress.totalBytes == progress.completedBytes
        let shouldDraw = state.withLock { state in
            if !isLast, let last = state.lastDraw, now - last < .milliseconds(100) { return false }
            state.lastDraw = now
            state.drewAnything = true
            return true
        }
        guard shouldDraw else { return }
        FileHandle.standardError.write(Data(("\r" + line(progress, at: now) + "\u{1B}[K").utf8))
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        let drew = state.withLock { $0.drewAnything }
        if drew { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func line(_ progress: TransferProgress, at now: ContinuousClock.Instant) -> String {
        let elapsed = seconds(now - started)
        let rate = elapsed > 0 ? Double(progress.completedBytes) / elapsed : 0
        var parts = [label]
        if let fraction = progress.fractionCompleted {
            let width = 24
            let filled = Int(min(Double(width), max(0, fraction.isFinite ? fraction * Double(width) : 0)))
            parts.append(
                "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]")
            parts.append(String(format: "%3.0f%%", fraction * 100))
        }
        let total = progress.totalBytes.map { " / " + Self.bytes($0) } ?? ""
        parts.append(Self.bytes(progress.completedBytes) + total)
        parts.append(Self.bytes(Self.wholeNumber(rate)) + "/s")
        if let left = Self.timeLeft(total: progress.totalBytes, completed: progress.completedBytes, rate: rate) {
            parts.append("ETA " + left)
        }
        return parts.joined(separator: "  ")
    }

    /// The time left at `rate` bytes a second, or `nil` when there is nothing to estimate. The
    /// total is the server's announced length, so nothing here may trap on it: a wait beyond 99
    /// hours reads `>99:00:00`.
    static func timeLeft(total: Int64?, completed: Int64, rate: Double) -> String? {
        guard let total, rate > 0, rate.isFinite, total > completed else { return nil }
        let (remaining, overflow) = total.subtractingReportingOverflow(completed)
        let seconds = overflow ? Double.infinity : Double(remaining) / rate
        return seconds < 99 * 3600 ? clock(seconds) : ">99:00:00"
    }

    /// A non-negative number rounded down to an `Int64`, saturating instead of trapping.
    private static func wholeNumber(_ value: Double) -> Int64 {
        guard value.isFinite, value > 0 else { return 0 }
        return value < 9.2e18 ? Int64(value) : Int64.max
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A byte count in B, KiB, MiB or GiB.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
    }

    private static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole >= 3600
            ? String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
            : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
