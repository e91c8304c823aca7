import Foundation
import Stratus

/// Which bytes an upload session's next fragment carries, and how Graph's
/// `nextExpectedRanges` read.
///
/// Fragments are sent in order, each ``OneDriveConfiguration/fragmentSize`` bytes (a multiple of
/// 320 KiB below 60 MiB) except the last. After an interruption the session says which bytes
/// it still expects (`["26214400-"]`, `["0-1023", "2048-"]`); the upload goes on from the first
/// of them, never skipping a byte the session has not taken.
enum OneDriveFragmentPlan {
    /// The fragment that starts at `offset`.
    /// - Parameters:
    ///   - offset: The first byte to send, within `0..<size`.
    ///   - size: The content's size.
    ///   - fragmentSize: The fragment size.
    /// - Returns: The byte range of the fragment.
    static func fragment(from offset: Int64, size: Int64, fragmentSize: Int64) -> Range<Int64> {
        let end = offset + min(fragmentSize, size - offset)
        return offset..<end
    }

    /// The first byte a session expects, from its `nextExpectedRanges`.
    /// - Parameters:
    ///   - ranges: The ranges as Graph spells them (`"start-"` or `"start-end"`).
    ///   - size: The content's size.
    /// - Returns: The first expected byte, or `nil` when the list is empty (everything arrived).
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` for a range that cannot be read or
    ///   lies outside the content.
    static func firstExpected(_ ranges: [String], size: Int64) throws -> Int64? {
        var starts: [Int64] = []
        for range in ranges {
            let parts = range.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let start = Int64(parts[0].trimmingCharacters(in: .whitespaces)), start >= 0,
                start < max(size, 1)
            else {
                throw OneDriveErrorMapping.undecodable(
                    "the upload session", "nextExpectedRanges holds \(range.debugDescription)")
            }
            if !parts[1].isEmpty {
                guard let end = Int64(parts[1]), end >= start, end < size else {
                    throw OneDriveErrorMapping.undecodable(
                        "the upload session", "nextExpectedRanges holds \(range.debugDescription)")
                }
            }
            starts.append(start)
        }
        return starts.min()
    }

    /// `bytes a-b/N` for a fragment.
    static func contentRange(_ range: Range<Int64>, size: Int64) -> String {
        "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
    }
}
