import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Two clients creating one folder at once.
///
/// Drive allows two folders of one name in a folder, so two devices whose first writes create
/// the same root folder or subfolder at the same moment (each looked and found none) would each
/// fill a folder of its own and never see the other's files. After every folder it creates, the
/// adapter looks again: among the same-named folders the oldest is the winner
/// (``DriveNameRule``: smallest `createdTime`, then smallest id), and a client whose new folder
/// lost moves whatever is in it into the winner (merging same-named subfolders the same way),
/// trashes it (or deletes it, as ``DriveConfiguration/deleteMode`` says) once a listing finds it
/// empty, and uses the winner. Every instance then resolves the path to the winner.
///
/// Why the loser's own creator does it: the client that created the later folder is the one
/// whose second look is sure to see both (its create came after the other's), so the rule and
/// the creation order agree. Limit: two folders with the same `createdTime` (to the
/// millisecond, or Drive servers whose clocks disagree) may leave the later creator believing
/// it won, if its look came before the other folder existed; the two then stay apart until a
/// new instance resolves the path (it takes the winner by the same rule). Same-named files of
/// the two folders are kept side by side, and the path means the oldest.
extension DriveService {
    /// The folder a name means after this service created `created` in a parent: `created`
    /// unless an older same-named folder is there, in which case `created` is merged into that
    /// one and its id is returned.
    /// - Throws: ``/Stratus/ServiceError`` when the look or a move fails.
    func settleCreatedFolder(_ created: DriveFile, named name: String, in parentID: String) async throws -> String {
        let folders = try await children(of: parentID, named: name).filter(\.isFolder)
        guard let winner = DriveNameRule.preferred(folders + [created]), winner.id != created.id else {
            return created.id
        }
        logger.info("Another client created the Drive folder \(name.debugDescription) at the same time; using theirs.")
        try await merge(folder: created.id, into: winner.id, depth: 0)
        return winner.id
    }

    /// Moves what a folder holds into another (merging a subfolder into a same-named one there),
    /// then trashes or deletes the emptied folder; a folder still not empty after a few rounds
    /// (someone keeps writing into it) is left in place.
    private func merge(folder loserID: String, into winnerID: String, depth: Int) async throws {
        var isEmpty = false
        for _ in 0..<4 where depth < 16 {
            let entries = try await children(of: loserID, named: nil)
            if entries.isEmpty {
                isEmpty = true
                break
            }
            for entry in entries {
                let twin =
                    entry.isFolder
                    ? DriveNameRule.preferred(
                        try await children(of: winnerID, named: DriveNameRule.component(entry.name)).filter(\.isFolder))
                    : nil
                if let twin, twin.id != entry.id {
                    try await merge(folder: entry.id, into: twin.id, depth: depth + 1)
                } else {
                    try await move(entry.id, from: loserID, to: winnerID)
                }
            }
        }
        if isEmpty { try await removeEmptyFolder(loserID) }
    }

    /// Moves an entry from one folder to another (`files.update` with `addParents` and
    /// `removeParents`; repeating it changes nothing).
    private func move(_ id: String, from oldParent: String, to newParent: String) async throws {
        let url = transport.apiURL(
            "files/\(id)", [("addParents", newParent), ("removeParents", oldParent), ("fields", "id")])
        let body = try DriveJSONBody.encode([:])
        _ = try await transport.json("files.update (move)", .patch, url, body: body, as: DriveFile.self)
    }

    /// Trashes or deletes an emptied folder, as the delete mode says; one already gone is fine.
    private func removeEmptyFolder(_ id: String) async throws {
        do {
            if configuration.deleteMode == .trash {
                let body = try DriveJSONBody.encode(["trashed": .bool(true)])
                let url = transport.apiURL("files/\(id)", [("fields", "id,trashed")])
                _ = try await transport.json("files.update (trash)", .patch, url, body: body, as: DriveFile.self)
            } else {
                let url = transport.apiURL("files/\(id)")
                _ = try await transport.send("files.delete", repetition: .safe) {
                    StratusHTTPRequest(method: .delete, url: url)
                }
            }
        } catch let error as ServiceError where error.code == .notFound {
            return
        }
    }
}
