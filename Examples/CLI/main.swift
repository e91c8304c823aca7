import ArgumentParser
import Foundation

// Runs the command, and turns every failure into a message with a next step and an exit status
// that tells the kinds apart (see ExitStatus).
/// Runs a command's async `run()`; through an existential, the synchronous one would be chosen.
func runAsync<Command: AsyncParsableCommand>(_ command: inout Command) async throws {
    try await command.run()
}

let wantsJSON = CommandLine.arguments.dropFirst().contains("--json")
do {
    var command = try StratusCommand.parseAsRoot()
    if var asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(&asyncCommand)
    } else {
        try command.run()
    }
} catch let failure as CLIFailure {
    if wantsJSON {
        try? Output.json(ErrorDocument(failure))
    }
    Output.note("stratus: \(failure)")
    exit(failure.status.rawValue)
} catch {
    let code = StratusCommand.exitCode(for: error)
    let message = StratusCommand.fullMessage(for: error)
    if code == .success {
        if !message.isEmpty { Output.line(message) }
        exit(0)
    }
    if wantsJSON, code == .validationFailure {
        try? Output.json(ErrorDocument(CLIFailure(.usage, message)))
    }
    Output.note(message.isEmpty ? "stratus: failed with \(error)" : message)
    exit(code == .validationFailure ? ExitStatus.usage.rawValue : ExitStatus.other.rawValue)
}
