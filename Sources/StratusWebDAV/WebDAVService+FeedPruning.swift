import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Pruning of the emulated change feed's records in `.stratus/`, so they do not grow forever.
///
/// Journal entries whose stamp is older than ``WebDAVConfiguration/feedRetention`` are deleted,
/// after the name of the newest of them is written to `.stratus/feed/pruned-journal`; a token
/// whose snapshot was taken at or before that entry then gets
/// ``/Stratus/ServiceError/Code/invalidChangeToken`` (it could miss the changes pruned), and a
/// client lists the files again. Snapshots not written again within the retention are deleted
/// too; a token that names a deleted snapshot gets the same error.
extension WebDAVService {
    /// The marker with the newest pruned journal entry's name.
    static let prunedJournalMarker = "pruned-journal"

    /// Prunes the feed's records once per instance; a failure is logged (the records are only
    /// kept longer).
    func pruneFeedOnce() async {
        let isFirst = feedPruned.withLock { pruned in
            defer { pruned = true }
            return !pruned
        }
        guard isFirst else { return }
        do {
            // At most a century, so the cutoff stays within reach of the journal's stamps.
            let retention = min(Self.seconds(configuration.feedRetention), 100 * 365 * 24 * 3600)
            try await pruneFeed(olderThan: Date().addingTimeInterval(-retention))
        } catch {
            logger.warning("The change feed's old records were not pruned", metadata: ["error": "\(error)"])
        }
    }

    /// Deletes journal entries and snapshots older than a date.
    func pruneFeed(olderThan cutoff: Date) async throws {
        let micros = Int64(cutoff.timeIntervalSince1970 * 1_000_000)
        let stale = try await journalNames().filter { Int64($0.prefix(19)).map { $0 < micros } ?? false }
        if let newest = stale.last {
            let previous = try await prunedJournalHorizon() ?? ""
            if newest > previous {
                try await ensureReservedFolder("feed")
                _ = try await transport.send(
                    transport.request(
                        .put, try transport.url(for: [Self.reservedFolder, "feed", Self.prunedJournalMarker]),
                        body: .bytes(Data(newest.utf8))),
                    action: "PUT of the change journal's pruning mark", repetition: .safe)
            }
            for name in stale {
                try await deleteRecord([Self.reservedFolder, "journal", name])
            }
        }
        let feed = try transport.url(for: [Self.reservedFolder, "feed"], isFolder: true)
        let snapshots =
            try await transport.propfind(feed, depth: 1, action: "PROPFIND of the change-feed snapshots") ?? []
        for entry in snapshots where !entry.isCollection {
            let encoded = entry.href.split(separator: "/").last.map(String.init) ?? ""
            let name = encoded.removingPercentEncoding ?? encoded
            guard name.hasSuffix(".json"), let modified = entry.modified, modified < cutoff else { continue }
            try await deleteRecord([Self.reservedFolder, "feed", name])
        }
    }

    /// The newest pruned journal entry's name, when the journal was pruned.
    func prunedJournalHorizon() async throws -> String? {
        let url = try transport.url(for: [Self.reservedFolder, "feed", Self.prunedJournalMarker])
        do {
            let response = try await transport.send(
                transport.request(.get, url), action: "GET of the change journal's pruning mark", repetition: .safe,
                destination: .memory(limit: 1024))
            let name = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return name.isEmpty ? nil : name
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    /// DELETE of one of the adapter's records; one already gone is fine.
    private func deleteRecord(_ components: [String]) async throws {
        do {
            _ = try await transport.send(
                transport.request(.delete, try transport.url(for: components)), action: "DELETE of an old feed record",
                repetition: .safe)
        } catch let error as ServiceError where error.code == .notFound {}
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
