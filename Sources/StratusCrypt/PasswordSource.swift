public import Foundation
public import Stratus
import StratusFileSystem

/// Where a `crypt` remote's passphrase comes from: the configuration's usual secret options
/// (`password`, `password_file`, `password_command`), read only when the key file is first
/// needed, and never shown in descriptions, logs or errors.
public enum PasswordSource: Sendable, CustomStringConvertible {
    /// The passphrase itself.
    case text(String)
    /// A file whose first line is the passphrase.
    case file(URL)
    /// A shell command whose first line of output is the passphrase, such as `pass show vault`.
    case command(String)

    /// How long a password command may run (a `pass` or `gpg` prompt included).
    static let commandTimeout: Duration = .seconds(120)

    /// The source, without the passphrase.
    public var description: String {
        switch self {
        case .text: "PasswordSource.text(<redacted>)"
        case .file(let url): "PasswordSource.file(\(url.path))"
        case .command: "PasswordSource.command(<redacted>)"
        }
    }

    /// Reads the passphrase.
    /// - Returns: Its UTF-8 bytes.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when the file cannot be
    ///   read, the command fails, or the passphrase is empty; no message quotes either.
    public func read() throws -> [UInt8] {
        let text: String
        switch self {
        case .text(let value):
            text = value
        case .file(let url):
            guard let contents = try? String(contentsOf: url, encoding: .utf8) else {
                throw ServiceError(.invalidConfiguration, "The password file \(url.path) cannot be read.")
            }
            text = contents.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        case .command(let command):
            text = try Self.run(command).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        guard !text.isEmpty else {
            throw ServiceError(.invalidConfiguration, "The crypt remote's password is empty.")
        }
        return Array(text.utf8)
    }

    private static func run(_ command: String) throws -> String {
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.runBlocking(
                "/bin/sh", ["-c", command], input: .inherit, output: .collect(limit: 64 * 1024), error: .null,
                timeout: commandTimeout)
        } catch {
            throw ServiceError(.invalidConfiguration, "The password command failed to run or to finish in time.")
        }
        guard case .exited(0) = result.termination else {
            throw ServiceError(.invalidConfiguration, "The password command failed (\(result.termination)).")
        }
        return result.outputText
    }
}
