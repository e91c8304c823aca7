import Foundation
import Stratus
import StratusAdapterKit

/// The state file of ``DriveConfiguration/stateFolder``: the path index saved for a new process
/// (`drive-<root folder id>.json`, one per root, so two roots or accounts never share one).
extension DriveService {
    /// Attaches the state file, once the root folder's id is known, so the index holds what an
    /// earlier process saved; nothing without a state folder or before the root exists.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read.
    func prepareState() async throws {
        guard let folder = configuration.stateFolder, await !index.hasStateFile,
            let rootID = try await rootFolderID(create: false)
        else { return }
        try await index.attach(AdapterStateFile(folder: folder, name: "drive-\(rootID).json"))
    }

    /// Writes the index to the state file when it changed.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when it cannot be written.
    func saveState() async throws {
        guard configuration.stateFolder != nil else { return }
        try await prepareState()
        try await index.saveIfChanged()
    }

    /// Writes the index after a write on Drive: a failure is logged, since the write itself
    /// happened (the next feed read tries again, and throws if it still fails).
    func saveStateAfterWrite() async {
        do {
            try await saveState()
        } catch {
            logger.warning("The Drive adapter's state file could not be written: \(error)")
        }
    }
}
