import BenchmarkSupport
import Foundation

/// Flushes a file that another process wrote, to put every tool's download on disk before its
/// time stops, as StratusHTTP's does.
enum FileFlush {
    /// `fsync`s the file.
    /// - Returns: How long that took, in seconds.
    static func seconds(toFlush url: URL) throws -> Double {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BenchmarkFailure("cannot open \(url.path) to flush it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let start = ContinuousClock.now
        guard fsync(descriptor) == 0 else {
            throw BenchmarkFailure("flushing \(url.path) failed: \(String(cString: strerror(errno)))")
        }
        return (ContinuousClock.now - start).seconds
    }
}
