import Foundation
import Stratus
import StratusAdapterKit

/// The state file of ``OneDriveConfiguration/stateFolder``: the path index saved for a new
/// process (`onedrive-<root item id>.json`, one per root, so two roots or drives never share one).
extension OneDriveService {
    /// Attaches the state file for a root, so the index holds what an earlier process saved;
    /// nothing without a state folder.
    /// - Parameter rootID: The root item's id.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read.
    func prepareState(rootID: String) async throws {
        guard let folder = configuration.stateFolder, await !index.hasStateFile else { return }
        try await index.attach(AdapterStateFile(folder: folder, name: "onedrive-\(rootID).json"))
    }

    /// Writes the index to the state file when it changed.
    /// - Parameter rootID: The root item's id, or `nil` to use the one known (nothing is written
    ///   before it is).
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when it cannot be written.
    func saveState(rootID: String? = nil) async throws {
        guard configuration.stateFolder != nil else { return }
        var known = rootID
        if known == nil { known = await index.id(of: .root) }
        guard let rootID = known else { return }
        try await prepareState(rootID: rootID)
        try await index.saveIfChanged()
    }

    /// Writes the index after a write on OneDrive: a failure is logged, since the write itself
    /// happened (the next feed read tries again, and throws if it still fails).
    func saveStateAfterWrite() async {
        do {
            try await saveState()
        } catch {
            logger.warning("The OneDrive adapter's state file could not be written: \(error)")
        }
    }
}
