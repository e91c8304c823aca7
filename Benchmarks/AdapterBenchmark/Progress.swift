import Foundation

/// Progress lines, on standard error so that standard output carries only the table.
enum Progress {
    static func say(_ text: String) {
        FileHandle.standardError.write(Data("[adapter-benchmark] \(text)\n".utf8))
    }
}
