import Foundation
import Stratus
import StratusDigest

/// Reading local files for comparisons, without loading large ones whole.
enum LocalFiles {
    private static let blockSize = 1_048_576

    /// Where two files first differ.
    /// - Returns: `nil` when they hold the same bytes, otherwise the offset of the first
    ///   difference (the shorter file's size when one is a prefix of the other).
    /// - Throws: ``ExpectationFailure`` when either cannot be read.
    static func firstDifference(_ first: URL, _ second: URL) throws -> Int64? {
        let one = try open(first)
        let other = try open(second)
        defer {
            try? one.close()
            try? other.close()
        }
        var offset: Int64 = 0
        while true {
            let left = try read(one, first)
            let right = try read(other, second)
            if left.isEmpty && right.isEmpty { return nil }
            if left != right {
                let common = zip(left, right).prefix { $0 == $1 }.count
                return offset + Int64(common)
            }
            offset += Int64(left.count)
        }
    }

    /// The bytes of a small file.
    /// - Throws: ``ExpectationFailure`` when it cannot be read.
    static func contents(of url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw failure("could not read the local file \(url.path): \(error)")
        }
    }

    /// A file's hash under an algorithm, read in 1 MiB pieces.
    /// - Throws: ``ExpectationFailure`` when it cannot be read.
    static func hash(of url: URL, _ algorithm: HashAlgorithm) throws -> String {
        do {
            guard let value = try Digest.hash(fileAt: url, algorithms: [algorithm])[algorithm] else {
                throw failure("no \(algorithm) digest was computed for \(url.path)")
            }
            return value
        } catch let error as DigestError {
            throw failure("could not hash the local file \(url.path): \(error)")
        }
    }

    /// The names in a local folder, sorted.
    /// - Throws: ``ExpectationFailure`` when it cannot be read.
    static func names(in folder: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw failure("could not list the local folder \(folder.path): \(error)")
        }
    }

    private static func open(_ url: URL) throws -> FileHandle {
        do {
            return try FileHandle(forReadingFrom: url)
        } catch {
            throw failure("could not open the local file \(url.path): \(error)")
        }
    }

    private static func read(_ handle: FileHandle, _ url: URL) throws -> Data {
        do {
            return try handle.read(upToCount: blockSize) ?? Data()
        } catch {
            throw failure("could not read the local file \(url.path): \(error)")
        }
    }
}
