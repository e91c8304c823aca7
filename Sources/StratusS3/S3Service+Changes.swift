import Foundation
public import Stratus
import StratusDigest

/// The emulated change feed: S3 keeps no change log, so the feed is read from
/// `ListObjectVersions` of the whole root, ordered by `LastModified`.
///
/// Cost: every ``changes(since:)`` and ``latestChangeToken()`` lists every version and delete
/// marker below the root (1000 per request), so it suits a root of thousands of versions, not
/// millions; a lifecycle rule that expires old versions keeps it small.
///
/// Order: changes come oldest first by `LastModified`; versions of one key always in their
/// order. Listings are stamped to the second, so versions of different keys within one second
/// are ordered by the writer's clock kept in `x-amz-meta-stratus-written` (one `HeadObject` per
/// tied version near the page; writers on different machines are ordered by their clocks), and
/// delete markers (which carry no metadata) count as made at the end of their second.
///
/// Window: a multipart upload is stamped with the time it began; one that completes more than
/// ``S3Configuration/changeLookback`` after it began, and after newer changes were read, is not
/// reported.
extension S3Service {
    /// A token for the current end of the feed. See ``/Stratus/Service/latestChangeToken()``.
    public func latestChangeToken() async throws -> ChangeToken {
        try await guarded {
            try requireVersions()
            try await ensureVersioning()
            let entries = try await feedEntries()
            let watermark = entries.map { milliseconds($0.modified) }.max() ?? 0
            let lower = watermark - lookbackMilliseconds
            let seen = entries.filter { milliseconds($0.modified) >= lower }.map {
                S3ChangeCursor.digest(key: $0.key, versionID: $0.versionID)
            }
            return S3ChangeCursor(remote: remoteDigest, watermark: watermark, seen: seen).token
        }
    }

    /// The changes after a token, oldest first, ``S3Configuration/changePageSize`` at a time.
    /// See ``/Stratus/Service/changes(since:)``.
    ///
    /// A new version is reported as ``/Stratus/Change/upserted(_:)`` with that version's id,
    /// size and time (no hash or custom metadata: listings do not carry them; use
    /// ``metadata(of:)``); a delete marker as ``/Stratus/Change/deleted(_:)``.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await guarded {
            try requireVersions()
            let cursor = try S3ChangeCursor(token, remote: remoteDigest)
            try await ensureVersioning()
            let entries = try await feedEntries()
            let seen = Set(cursor.seen)
            let lower = cursor.watermark - lookbackMilliseconds
            // S3 lists a key's versions newest first; rank them oldest first.
            var rank: [Int] = Array(repeating: 0, count: entries.count)
            var index = entries.count - 1
            var counter = 0
            while index >= 0 {
                if index == entries.count - 1 || entries[index].key != entries[index + 1].key { counter = 0 }
                rank[index] = counter
                counter += 1
                index -= 1
            }
            var candidates: [FeedCandidate] = []
            for (position, entry) in entries.enumerated() {
                let time = milliseconds(entry.modified)
                let digest = S3ChangeCursor.digest(key: entry.key, versionID: entry.versionID)
                if time >= lower, !seen.contains(digest) {
                    candidates.append(FeedCandidate(entry: entry, digest: digest, time: time, rank: rank[position]))
                }
            }
            candidates.sort { $0.coarseOrder(before: $1) }
            try await breakTies(&candidates)
            let page = candidates.prefix(configuration.changePageSize)
            let watermark = max(cursor.watermark, page.map(\.time).max() ?? cursor.watermark)
            let taken = Set(page.map(\.digest))
            let newLower = watermark - lookbackMilliseconds
            var nextSeen: [String] = []
            for entry in entries where milliseconds(entry.modified) >= newLower {
                let digest = S3ChangeCursor.digest(key: entry.key, versionID: entry.versionID)
                if seen.contains(digest) || taken.contains(digest) { nextSeen.append(digest) }
            }
            let changes: [Change] = page.compactMap { candidate in
                guard let path = path(forKey: candidate.entry.key) else { return nil }
                if candidate.entry.isDeleteMarker { return .deleted(path) }
                return .upserted(
                    RemoteFile(
                        path: path, id: candidate.entry.key, size: candidate.entry.size,
                        modified: candidate.entry.modified,
                        contentHash: nil, version: VersionID(candidate.entry.versionID)
                    ))
            }
            return ChangePage(
                changes: changes,
                nextToken: S3ChangeCursor(remote: remoteDigest, watermark: watermark, seen: nextSeen).token,
                hasMore: candidates.count > page.count
            )
        }
    }

    /// Orders the versions S3 stamps with the same `LastModified` (listings are to the second)
    /// by the writer's clock in `x-amz-meta-stratus-written`, read with `HeadObject?versionId=`
    /// for the tied versions that reach into the next page only. A delete marker, or an object
    /// another tool wrote, has no stamp and counts as written at the end of its second; one
    /// key's versions stay in S3's order.
    private func breakTies(_ candidates: inout [FeedCandidate]) async throws {
        let pageSize = configuration.changePageSize
        guard candidates.count > 1 else { return }
        var start = 0
        while start < candidates.count, start < pageSize + 1 {
            var end = start + 1
            while end < candidates.count, candidates[end].time == candidates[start].time { end += 1 }
            if end - start > 1, Set(candidates[start..<end].map(\.entry.key)).count > 1 {
                try await stamp(&candidates, start..<end)
                var latest: [String: Int64] = [:]
                for index in start..<end {
                    let key = candidates[index].entry.key
                    let own = candidates[index].stamp ?? (candidates[index].time * 1000 + 999_999)
                    let effective = max(own, latest[key] ?? .min)
                    latest[key] = effective
                    candidates[index].effectiveStamp = effective
                }
                candidates[start..<end].sort { lhs, rhs in
                    if lhs.effectiveStamp != rhs.effectiveStamp { return lhs.effectiveStamp < rhs.effectiveStamp }
                    return lhs.coarseOrder(before: rhs)
                }
            }
            start = end
        }
    }

    /// Reads the write stamps of a range of candidates, eight at a time.
    private func stamp(_ candidates: inout [FeedCandidate], _ range: Range<Int>) async throws {
        let wanted = range.filter { !candidates[$0].entry.isDeleteMarker }
        let stamps = try await withThrowingTaskGroup(of: (Int, Int64?).self) { group in
            var found: [Int: Int64] = [:]
            var next = 0
            func addNext() {
                guard next < wanted.count else { return }
                let index = wanted[next]
                next += 1
                let entry = candidates[index].entry
                group.addTask {
                    guard let path = self.path(forKey: entry.key) else { return (index, nil) }
                    do {
                        return (index, try await self.headDescription(path, version: entry.versionID).written)
                    } catch let error as ServiceError where error.code == .notFound {
                        return (index, nil)
                    }
                }
            }
            for _ in 0..<8 { addNext() }
            while let (index, stamp) = try await group.next() {
                if let stamp { found[index] = stamp }
                addNext()
            }
            return found
        }
        for (index, stamp) in stamps { candidates[index].stamp = stamp }
    }

    /// Every version and delete marker of a file below the root (the adapter's own records
    /// left out), in S3's listing order.
    private func feedEntries() async throws -> [S3VersionEntry] {
        try await listVersions(prefix: prefix(for: .root)).filter { path(forKey: $0.key) != nil }
    }

    private var lookbackMilliseconds: Int64 {
        let parts = configuration.changeLookback.components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }

    private func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Names the bucket and root a token belongs to.
    var remoteDigest: String {
        Hex.encode(Digest.sha256(Data("\(configuration.bucket)\u{0}\(configuration.root)".utf8)).prefix(6))
    }
}

/// A version not yet reported, with what orders it in the feed.
struct FeedCandidate: Sendable {
    var entry: S3VersionEntry
    var digest: String
    /// `LastModified` in milliseconds.
    var time: Int64
    /// The version's place among its key's versions, oldest first.
    var rank: Int
    /// The writer's clock at the write, in microseconds, when read.
    var stamp: Int64?
    /// The stamp used to order ties (see `breakTies`).
    var effectiveStamp: Int64 = 0

    /// Order by time, then key, then the key's own order.
    func coarseOrder(before other: FeedCandidate) -> Bool {
        if time != other.time { return time < other.time }
        if entry.key != other.entry.key { return entry.key.utf8.lexicographicallyPrecedes(other.entry.key.utf8) }
        return rank < other.rank
    }
}
