import ArgumentParser
import Foundation
import Stratus
import StratusCrypt

/// `stratus crypt ...`: the keys of `crypt` remotes.
struct CryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypt",
        abstract: "Show the keys of an encrypting crypt remote.",
        discussion: """
            A crypt remote stores its files as age v1 files on another remote:
              stratus remote add vault --type crypt --option remote=saves --option password_command='pass show vault'
            Losing the passphrase loses the data; `stratus crypt identity vault` prints the identity \
            that decrypts any downloaded file with `age -d -i`, for a safe place of your choosing.
            """,
        subcommands: [CryptIdentityCommand.self, CryptRecipientCommand.self, CryptChangePasswordCommand.self]
    )
}

/// `stratus crypt identity NAME`: the store's age identity, unlocked by the passphrase.
struct CryptIdentityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Print the age identity (AGE-SECRET-KEY-1...) of a crypt remote, after its passphrase unlocks it.",
        discussion: """
            Anyone with this line can read every file of the remote: keep it as safe as the passphrase. \
            With it, `age -d -i identity.txt FILE` decrypts a file downloaded from the wrapped remote.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The crypt remote's name.") var remote: String

    func run() async throws {
        let vault = try CryptRemote.open(remote, global)
        let identity = try await global.explained(remote: remote) { try await vault.identity() }
        if global.json {
            try Output.json(["identity": identity.secretKeyText, "recipient": identity.recipient])
            return
        }
        Output.note("This is the secret key of remote '\(remote)': anyone holding it can read all its files.")
        Output.line("# public key: \(identity.recipient)")
        Output.line(identity.secretKeyText)
    }
}

/// `stratus crypt recipient NAME`: the store's public age recipient.
struct CryptRecipientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipient",
        abstract: "Print the age recipient (age1...) of a crypt remote: `age -r` encrypts files it can read."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The crypt remote's name.") var remote: String

    func run() async throws {
        let vault = try CryptRemote.open(remote, global)
        let identity = try await global.explained(remote: remote) { try await vault.identity() }
        if global.json {
            try Output.json(["recipient": identity.recipient])
            return
        }
        Output.line(identity.recipient)
    }
}

/// The crypt service of a configured remote.
enum CryptRemote {
    static func open(_ remote: String, _ global: GlobalOptions) throws -> CryptService {
        guard let vault = try global.service(named: remote) as? CryptService else {
            throw ValidationError("Remote '\(remote)' is not a crypt remote (type crypt).")
        }
        return vault
    }
}

/// `stratus crypt change-password NAME`: rewrites the key file under a new passphrase.
struct CryptChangePasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-password",
        abstract: "Rewrite a crypt remote's key file under a new passphrase; no other file changes.",
        discussion: """
            The current passphrase (from the remote's options) unlocks the key file; the new one is the \
            first line a command prints. Update the remote's password option afterwards. Losing the new \
            passphrase loses the data.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The crypt remote's name.") var remote: String
    @Option(help: ArgumentHelp("A shell command that prints the new passphrase.", valueName: "command"))
    var newPasswordCommand: String

    func run() async throws {
        let vault = try CryptRemote.open(remote, global)
        try await global.explained(remote: remote) { try await vault.changePassword(to: .command(newPasswordCommand)) }
        if global.json {
            try Output.json(["remote": remote, "key_file": "rewritten"])
            return
        }
        Output.line("Rewrote the key file of '\(remote)' under the new passphrase; now set its password option to it.")
    }
}
