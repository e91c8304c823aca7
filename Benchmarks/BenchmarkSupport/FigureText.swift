import Foundation

/// The cells the reports share, formatted alike in every benchmark.
package enum FigureText {
    /// "1.23 s".
    package static func seconds(_ seconds: Double) -> String {
        String(format: "%.2f s", seconds)
    }

    /// "12.3 MiB", from KiB.
    package static func mebibytes(kib: Int) -> String {
        String(format: "%.1f MiB", Double(kib) / 1024)
    }
}
