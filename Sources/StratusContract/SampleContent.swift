public import Foundation

/// Deterministic test content: the same seed and size always give the same bytes, and
/// different seeds give unrelated bytes, so a test can write content, drop it, and check it
/// later without keeping a copy.
///
/// ```swift
/// try SampleContent.write(count: 64 * 1_048_576, seed: "big", to: url)   // streamed, 1 MiB at a time
/// let small = SampleContent.data(count: 1_000, seed: "small")
/// ```
public enum SampleContent {
    private static let blockSize = 1_048_576

    /// Makes content in memory, for small sizes.
    /// - Parameters:
    ///   - count: The number of bytes.
    ///   - seed: Any text; it picks the bytes.
    /// - Returns: The content.
    public static func data(count: Int, seed: String) -> Data {
        var data = Data(count: max(0, count))
        data.withUnsafeMutableBytes { fill($0, startingAt: 0, seed: seedValue(seed)) }
        return data
    }

    /// Writes content to a file, replacing it, one 1 MiB block at a time, so large sizes never
    /// sit in memory.
    /// - Parameters:
    ///   - count: The number of bytes.
    ///   - seed: Any text; it picks the bytes, the same as ``data(count:seed:)``.
    ///   - url: The file to write; its folder must exist.
    /// - Throws: The file system's error when the file cannot be created or written.
    public static func write(count: Int64, seed: String, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let value = seedValue(seed)
        var block = Data(count: blockSize)
        var written: Int64 = 0
        while written < count {
            let size = Int(min(Int64(blockSize), count - written))
            block.withUnsafeMutableBytes {
                fill(UnsafeMutableRawBufferPointer(rebasing: $0[0..<size]), startingAt: written, seed: value)
            }
            try handle.write(contentsOf: block.prefix(size))
            written += Int64(size)
        }
    }

    /// Fills a buffer with the bytes at one offset of the content; the offset must be a
    /// multiple of 8 (every block but the last is).
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer, startingAt offset: Int64, seed: UInt64) {
        var word = UInt64(offset / 8)
        var position = 0
        while position < buffer.count {
            let value = mix(seed &+ word).littleEndian
            let count = min(8, buffer.count - position)
            withUnsafeBytes(of: value) { bytes in
                for index in 0..<count {
                    buffer[position + index] = bytes[index]
                }
            }
            position += count
            word += 1
        }
    }

    /// SplitMix64's output function: a good scramble of a counter.
    private static func mix(_ input: UInt64) -> UInt64 {
        var z = input &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// FNV-1a over the seed's UTF-8 bytes: stable across processes, unlike `hashValue`.
    private static func seedValue(_ seed: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in seed.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
