import ArgumentParser
import Foundation
import Stratus
import StratusKeyValue
import StratusSync

/// Runs a command's async `run()`; through an existential, the synchronous one would be chosen.
func runAsync<Command: AsyncParsableCommand>(_ command: inout Command) async throws {
    try await command.run()
}

do {
    var command = try SaveSyncCommand.parseAsRoot()
    if var asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(&asyncCommand)
    } else {
        try command.run()
    }
} catch let error as ServiceError {
    FileHandle.standardError.write(Data("stratus-save-sync: \(error.code): \(error.message)\n".utf8))
    exit(error.code == .conflict ? 3 : 1)
} catch let error where error is SyncError || error is KeyValueError || error is SaveSyncFailure {
    FileHandle.standardError.write(Data("stratus-save-sync: \(error)\n".utf8))
    exit(1)
} catch {
    SaveSyncCommand.exit(withError: error)
}
