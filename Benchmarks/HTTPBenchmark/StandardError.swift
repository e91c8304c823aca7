import Foundation

/// Progress and error messages, kept off standard output so that it carries only the report.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
