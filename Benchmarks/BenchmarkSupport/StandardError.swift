import Foundation

/// Progress and error messages, kept off standard output so that it carries only the report.
package enum StandardError {
    /// Writes `text` as it is.
    package static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes `line` and a line break.
    package static func writeLine(_ line: String) {
        write(line + "\n")
    }
}
