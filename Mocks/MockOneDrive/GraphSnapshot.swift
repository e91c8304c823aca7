import Foundation
import MockSupport

/// The drive as `onedrive-state.json` holds it (see ``PersistentState``): every item with its
/// versions, the deleted items and the change log, so ids, eTags and delta tokens issued before
/// a restart go on working. Each folder's children index is rebuilt on loading; upload sessions
/// do not survive a restart.
struct GraphSnapshot: Codable, Sendable {
    /// The state file's kind.
    static let kind = "onedrive"
    /// The format's version.
    static let formatVersion = 1

    var driveID: String
    var items: [GraphItem]
    var tombstones: [GraphTombstone]
    var log: [String]
    var deltaEpoch: Int
    var nextNumber: Int
    var rootID: String
    var appRootID: String?
    var appFolderName: String
    var driftPending: [String]

    /// A snapshot of a state.
    init(_ state: GraphState) {
        driveID = state.driveID
        items = Array(state.items.values)
        tombstones = Array(state.tombstones.values)
        log = state.log
        deltaEpoch = state.deltaEpoch
        nextNumber = state.nextNumber
        rootID = state.rootID
        appRootID = state.appRootID
        appFolderName = state.appFolderName
        driftPending = Array(state.driftPending)
    }

    /// Every blob the snapshot's versions hold.
    var blobs: [BlobInfo] { items.flatMap { $0.versions.map(\.blob) } }

    /// The state the snapshot describes.
    /// - Throws: A description of the first inconsistency (an item whose parent is missing).
    func restoredState() throws(SnapshotError) -> GraphState {
        var state = GraphState(appFolderName: appFolderName)
        state.driveID = driveID
        state.items = [:]
        state.folders = [:]
        for item in items {
            state.items[item.id] = item
            state.usedBytes += item.versions.reduce(0) { $0 + $1.blob.size }
            if item.isFolder { state.folders[item.id] = FolderIndex() }
        }
        for item in items {
            guard let parent = item.parentID else { continue }
            guard state.folders[parent] != nil else {
                throw SnapshotError(description: "the item \(item.id) names a parent folder \(parent) it does not hold")
            }
            state.folders[parent]?.insert(item.name, id: item.id)
        }
        guard state.items[rootID] != nil else { throw SnapshotError(description: "the root folder is missing") }
        state.tombstones = Dictionary(tombstones.map { ($0.id, $0) }) { first, _ in first }
        state.log = log
        state.deltaEpoch = deltaEpoch
        state.nextNumber = nextNumber
        state.rootID = rootID
        state.appRootID = appRootID
        state.driftPending = Set(driftPending)
        return state
    }
}

/// Why a saved state cannot be used.
struct SnapshotError: Error, CustomStringConvertible {
    var description: String
}
