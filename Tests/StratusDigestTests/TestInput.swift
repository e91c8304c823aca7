import Foundation
import StratusDigest

/// Deterministic test content: byte `i` is `UInt8(i % 251)`, the same rule the Python one-liners
/// in the tests use to produce the expected digests.
enum TestInput {
    /// 1 MiB.
    static let mebibyte = 1_048_576

    /// The longest input any test needs: 9 MiB of the pattern, built once.
    static let nineMebibytes: [UInt8] = {
        let period = (0..<251).map { UInt8($0) }
        let count = 9 * mebibyte
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            bytes.append(contentsOf: period.prefix(count - bytes.count))
        }
        return bytes
    }()

    /// The first `count` bytes of the pattern.
    static func pattern(count: Int) -> ArraySlice<UInt8> {
        nineMebibytes[0..<count]
    }
}

/// How a test splits content into the pieces it feeds an incremental digest.
enum PiecePattern: CaseIterable, Sendable, CustomStringConvertible {
    /// All the content in one call.
    case onePiece
    /// Pieces of 7, 13, 65,537 and 1,000,003 bytes in turn.
    case oddSizes
    /// 65,537 bytes (64 KiB + 1) per call.
    case sixtyFourKiBPlusOne
    /// Pieces of 1, 7, 65,537 and 1,048,573 bytes in turn, so piece edges fall everywhere.
    case mixed

    /// The piece sizes, repeated until the content runs out.
    var sizes: [Int] {
        switch self {
        case .onePiece: [Int.max]
        case .oddSizes: [7, 13, 65_537, 1_000_003]
        case .sixtyFourKiBPlusOne: [65_537]
        case .mixed: [1, 7, 65_537, 1_048_573]
        }
    }

    var description: String {
        switch self {
        case .onePiece: "one piece"
        case .oddSizes: "7/13/65,537/1,000,003-byte pieces"
        case .sixtyFourKiBPlusOne: "65,537-byte pieces"
        case .mixed: "1/7/65,537/1,048,573-byte pieces"
        }
    }

    /// Feeds content to a digest in this pattern's pieces.
    func feed(_ content: ArraySlice<UInt8>, to digest: any IncrementalDigest) {
        content.withUnsafeBytes { all in
            var offset = 0
            var sizeIndex = 0
            while offset < all.count {
                let size = sizes[sizeIndex % sizes.count]
                let end = offset + min(size, all.count - offset)
                digest.update(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
                sizeIndex += 1
            }
        }
    }
}

/// A file in its own fresh temporary directory, removed when the test body returns.
enum TemporaryFile {
    /// Writes `contents` to a new temporary file, runs `body` with its URL, then removes it.
    static func with<Result>(
        contents: some ContiguousBytes,
        _ body: (URL) throws -> Result
    ) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("StratusDigestTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("content.bin")
        let data = contents.withUnsafeBytes { Data($0) }
        try data.write(to: file)
        return try body(file)
    }
}
