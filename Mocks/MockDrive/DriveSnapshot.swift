import Foundation
import MockSupport

/// The Drive mock's saved state (``PersistentState`` kind `drive`, format version 1): every
/// file and folder with its revisions (the two roots included, so their ids survive), the
/// change log and the counters. Resumable upload sessions are not in it: they end with the
/// process.
///
/// The change log is saved with only each file's newest change, which is all `changes.list`
/// reads (it reports a file at its newest change only), so page tokens issued before a
/// restart page on as they would have.
struct DriveSnapshot: Codable, Sendable {
    /// The kind of mock in the state file's header.
    static let kind = "drive"
    /// The version of this layout; a change to it that old files cannot be read as needs a
    /// new number.
    static let formatVersion = 1

    var rootID: String
    var appDataID: String
    /// Every node, in creation order (by serial, then id).
    var nodes: [DriveNode]
    var changes: [ChangeRecord]
    var nextSequence: Int64
    var versionCounter: Int64
    var serialCounter: Int

    /// The snapshot of a state (a copy taken under the store's lock).
    init(_ state: DriveState) {
        rootID = state.rootID
        appDataID = state.appDataID
        nodes = state.nodes.values.sorted { ($0.serial, $0.id) < ($1.serial, $1.id) }
        changes = state.changes.filter(state.isNewestChange)
        nextSequence = state.nextSequence
        versionCounter = state.versionCounter
        serialCounter = state.serialCounter
    }

    /// The store state it describes.
    /// - Throws: A description of the inconsistency when the roots or the change log do not
    ///   add up.
    func restoredState() throws(Inconsistency) -> DriveState {
        let ids = Set(nodes.map(\.id))
        guard ids.count == nodes.count else { throw Inconsistency(description: "two nodes have the same id") }
        guard ids.contains(rootID), ids.contains(appDataID) else {
            throw Inconsistency(description: "the root folders \(rootID) and \(appDataID) are not among the nodes")
        }
        guard zip(changes, changes.dropFirst()).allSatisfy({ $0.sequence < $1.sequence }),
            changes.last.map({ $0.sequence < nextSequence }) ?? true
        else {
            throw Inconsistency(description: "the change log is not in ascending order below \(nextSequence)")
        }
        return DriveState(
            rootID: rootID, appDataID: appDataID, nodes: nodes, changes: changes, nextSequence: nextSequence,
            versionCounter: versionCounter, serialCounter: serialCounter)
    }

    /// Every blob a revision holds.
    var blobs: [BlobInfo] {
        nodes.flatMap { $0.revisions.map(\.blob) }
    }

    /// Why a decoded snapshot cannot be a store.
    struct Inconsistency: Error, CustomStringConvertible {
        var description: String
    }
}
