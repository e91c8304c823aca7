import Foundation

/// A `Range: bytes=...` request header, as the mocks read it.
public enum ByteRangeHeader {
    /// The byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`, or `nil` when it cannot be
    /// satisfied (or names several ranges).
    public static func range(_ header: String, size: Int64) -> Range<Int64>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = spec[0].trimmingCharacters(in: .whitespaces)
        let last = spec[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int64(last), suffix > 0, size > 0 else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let start = Int64(first), start >= 0, start < size else { return nil }
        if last.isEmpty { return start..<size }
        guard let end = Int64(last), end >= start else { return nil }
        return start..<min(end + 1, size)
    }
}
