import BenchmarkSupport
import Foundation

/// Progress lines, on standard error so that standard output carries only the table.
enum Progress {
    static func say(_ text: String) {
        StandardError.writeLine("[adapter-benchmark] \(text)")
    }
}
