import BenchmarkSupport
import Foundation
import StratusDigest

/// The bytes every large body consists of: one 1 MiB block (byte `i` is `i % 251`) repeated,
/// cut off at the body's size. The server sends it from memory; the upload file holds it.
enum PatternContent {
    static let blockSize = 1_048_576
    static let block: [UInt8] = (0..<blockSize).map { UInt8($0 % 251) }

    /// Writes `size` bytes of the pattern to a new file and flushes it to disk, so that no
    /// write-back of it competes with the measurements.
    static func writeFile(at url: URL, size: Int64) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BenchmarkFailure("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        try block.withUnsafeBytes { bytes in
            var remaining = size
            while remaining > 0 {
                let piece = Int(min(remaining, Int64(bytes.count)))
                var offset = 0
                while offset < piece {
                    let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, piece - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw BenchmarkFailure("writing \(url.path) failed: \(String(cString: strerror(errno)))")
                    }
                    offset += written
                }
                remaining -= Int64(piece)
            }
        }
        guard fsync(descriptor) == 0 else {
            throw BenchmarkFailure("flushing \(url.path) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// The SHA-256 of `size` bytes of the pattern, as lowercase hex.
    static func sha256Hex(size: Int64) -> String {
        let digest = SHA256Digest()
        block.withUnsafeBytes { bytes in
            var remaining = size
            while remaining > 0 {
                let piece = Int(min(remaining, Int64(bytes.count)))
                digest.update(UnsafeRawBufferPointer(rebasing: bytes[0..<piece]))
                remaining -= Int64(piece)
            }
        }
        return digest.finalizeHex()
    }

    /// The SHA-256 of a file, as lowercase hex.
    static func sha256Hex(ofFileAt url: URL) throws -> String {
        guard let hex = try Digest.hash(fileAt: url, algorithms: [.sha256])[.sha256] else {
            throw BenchmarkFailure("no SHA-256 was computed for \(url.path)")
        }
        return hex
    }
}
