public import Foundation
public import Stratus

/// The `crypt` backend: a ``CryptService`` over another configured remote, named by its
/// `remote` option.
///
/// ```json
/// { "remotes": {
///     "saves": { "type": "dropbox", "options": { "app_key": "...", "token_store": "~/.stratus/dropbox.json" } },
///     "vault": { "type": "crypt", "options": { "remote": "saves", "password_command": "pass show vault" } } } }
/// ```
///
/// The passphrase comes from `password`, `password_file` or `password_command`, as other
/// backends' secrets do, and never appears in messages. **Losing the passphrase loses the
/// data:** nothing, and no one, can decrypt the files without it (or the identity that
/// `stratus crypt identity` prints). The registry that builds a `crypt` remote must know the
/// configuration, to build the wrapped remote: call
/// `ServiceRegistry.resolvingWrappedRemotes(in:)` before building services.
public enum CryptBackend: ServiceBackend {
    /// `"crypt"`.
    public static let typeName = "crypt"

    /// `remote` (required), `password`, `password_file`, `password_command`, `names` and
    /// `scrypt_work_factor`.
    public static let options: [BackendOption] = [
        BackendOption("remote", summary: "The configured remote that stores the encrypted files.", isRequired: true),
        BackendOption(
            "password",
            summary:
                "The passphrase that unlocks the key file; prefer password_file or password_command. Losing it loses the data."
        ),
        BackendOption("password_file", summary: "A file whose first line is the passphrase."),
        BackendOption(
            "password_command", summary: "A shell command that prints the passphrase, such as 'pass show vault'."),
        BackendOption(
            "names",
            summary:
                "encrypted (the default: AES-SIV per path segment, base32) or plain (only contents are encrypted)."),
        BackendOption(
            "scrypt_work_factor",
            summary: "log2 of scrypt's N when a key file is written (default 18, as age -p; at most 22)."),
    ]

    /// Builds a crypt service without a registry: always fails, since the wrapped remote is
    /// built by name through a registry.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration``.
    public static func makeService(options: RemoteOptions) throws -> any Service {
        try makeService(options: options, context: BackendContext())
    }

    /// Builds a crypt service over the remote its `remote` option names.
    /// - Parameters:
    ///   - options: The remote's options.
    ///   - context: The registry's context, where `ServiceRegistry.resolvingWrappedRemotes(in:)`
    ///     left the way to build remotes by name.
    /// - Returns: A ``CryptService``.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a missing or bad option,
    ///   no password option, or a registry that cannot build the wrapped remote.
    public static func makeService(options: RemoteOptions, context: BackendContext) throws -> any Service {
        let remote = options.remoteName
        let wrapped = try options.requiredString("remote")
        let password: PasswordSource
        if let given = options.string("password"), !given.isEmpty {
            password = .text(given)
        } else if let file = options.string("password_file"), !file.isEmpty {
            password = .file(URL(filePath: NSString(string: file).expandingTildeInPath))
        } else if let command = options.string("password_command"), !command.isEmpty {
            password = .command(command)
        } else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(remote)' needs 'password', 'password_file' or 'password_command': the passphrase that unlocks its key file."
            )
        }
        let names: CryptService.Names
        switch options.string("names")?.lowercased() {
        case nil, "", "encrypted": names = .encrypted
        case "plain": names = .plain
        case let other?:
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(remote)' option 'names' is \(other.debugDescription), which is not 'encrypted' or 'plain'.")
        }
        let workFactor = try options.integer("scrypt_work_factor") ?? Int64(AgeRecipients.defaultLogN)
        guard workFactor >= 1, workFactor <= Int64(AgeRecipients.maximumLogN) else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(remote)' option 'scrypt_work_factor' is \(workFactor); it must be between 1 and \(AgeRecipients.maximumLogN)."
            )
        }
        guard wrapped != remote else {
            throw ServiceError(.invalidConfiguration, "Remote '\(remote)' cannot wrap itself.")
        }
        let base = try WrappedRemotes.make(wrapped, for: remote, context: context)
        return CryptService(
            base: base, password: password, names: names, remoteName: remote, scryptWorkFactor: Int(workFactor),
            logger: context.logger)
    }
}
