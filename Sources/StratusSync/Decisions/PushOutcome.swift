import Foundation
import Stratus

/// What pushing one record came to. A push only talks to the remote and returns one of these;
/// ``SyncStore`` writes them down in one transaction per batch: a commit becomes the record's
/// new base, and everything the remote's side must settle (a refusal, a write that lost a
/// race) becomes an entry for the next pull round, so nothing in the push path pulls.
enum PushOutcome: Sendable {
    /// The record was clean or gone by the time its turn came.
    case nothing
    /// The remote took the document. With `checkRace` (a service whose preconditions are
    /// best-effort and that keeps versions), another device's write may have slipped in between
    /// this device's precondition check and its commit: the next pull round reads the history
    /// (``lostWrites(in:written:base:)``) and settles any such write, in the history only, as a
    /// conflict.
    case committed(Commit, checkRace: Bool)
    /// The remote holds another side: the precondition was refused (another device wrote
    /// first), or a first write lost a race with another device's first write. The next pull
    /// round fetches what is there and settles it by the record type's policy.
    case refused(path: String)

    /// A document the remote confirmed.
    struct Commit: Sendable {
        /// The record.
        var key: RecordKey
        /// The document's path.
        var path: String
        /// The version the remote gave it.
        var version: VersionID
        /// The version the commit was conditional on; `nil` for a first write.
        var base: VersionID?
        /// The bytes that went up, the record's new base.
        var document: Data
        /// The local revision that was pushed: the record stays dirty if it was edited since.
        var revision: Int64
    }

    /// Whether the outcome must be written down at once rather than with its batch: a commit
    /// alone is recognised again by its edit id after a crash, but a race check would be
    /// forgotten.
    var mustBeWrittenAtOnce: Bool {
        if case .committed(_, let checkRace) = self { return checkRace }
        return false
    }

    /// Whether the outcome leaves work for a pull round.
    var needsPull: Bool {
        switch self {
        case .nothing: return false
        case .committed(_, let checkRace): return checkRace
        case .refused: return true
        }
    }

    /// Decides, from the history read after a commit on a service whose preconditions are
    /// best-effort, which writes slipped in between the base and this device's commit.
    /// - Parameters:
    ///   - history: The document's versions, newest first.
    ///   - written: The version this device's commit made.
    ///   - base: The version the commit was conditional on; `nil` for a first write.
    /// - Returns: The versions between this device's and its base, newest first (for a first
    ///   write, every older version); none when this device's version is not in the history or
    ///   its base is not found below it.
    static func lostWrites(in history: [FileVersion], written: VersionID, base: VersionID?) -> [VersionID] {
        guard let index = history.firstIndex(where: { $0.id == written }) else { return [] }
        let older = history[(index + 1)...]
        guard let base else { return older.map(\.id) }
        guard let baseIndex = older.firstIndex(where: { $0.id == base }) else { return [] }
        return older[..<baseIndex].map(\.id)
    }
}
