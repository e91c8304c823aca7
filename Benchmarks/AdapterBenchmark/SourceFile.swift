import BenchmarkSupport
import Foundation

/// The upload source: a 1 MiB block of real bytes (byte `i` is `i % 251`) repeated to the size
/// asked for, written and flushed once before any measurement.
enum SourceFile {
    static func write(to url: URL, size: Int64) throws {
        let block = Data((0..<1_048_576).map { UInt8($0 % 251) })
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchmarkFailure("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var remaining = size
        while remaining > 0 {
            let piece = Int(min(remaining, Int64(block.count)))
            try handle.write(contentsOf: block.prefix(piece))
            remaining -= Int64(piece)
        }
        try handle.synchronize()
    }
}
