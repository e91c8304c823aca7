public import Foundation
import Stratus
import StratusFileSystem

/// The user and password a WebDAV remote signs in with (HTTP Basic).
///
/// The password never appears in descriptions, dumps, logs or errors; server text quoted in an
/// error has it replaced by `<redacted>`.
public struct WebDAVCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The user name.
    public var user: String
    /// The password or app password.
    public var password: String

    /// Creates credentials.
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password or app password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The `Authorization` header value.
    var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// The values server text must never show: the password and the Basic credentials.
    var secrets: [String] {
        [password, Data("\(user):\(password)".utf8).base64EncodedString()].filter { !$0.isEmpty }
    }

    /// The user, with the password redacted.
    public var description: String { "WebDAVCredentials(user: \(user.debugDescription), password: <redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the password, so `dump` does not print it.
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": "<redacted>"]) }

    /// Reads a password from a file (its first line) or from a command's standard output (its
    /// first line), for remotes that keep no password in the configuration file.
    /// - Parameters:
    ///   - file: A file holding the password.
    ///   - command: A shell command that prints the password, such as `pass show cloud`.
    /// - Returns: The password.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when the file cannot be
    ///   read, the command fails, or the result is empty; the message never quotes the output.
    public static func readPassword(file: URL? = nil, command: String? = nil) throws -> String {
        let text: String
        if let file {
            guard let contents = try? String(contentsOf: file, encoding: .utf8) else {
                throw ServiceError(.invalidConfiguration, "The password file \(file.path) cannot be read.")
            }
            text = contents
        } else if let command {
            text = try run(command)
        } else {
            throw ServiceError(.invalidConfiguration, "No password file or command was given.")
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty else {
            throw ServiceError(.invalidConfiguration, "The password file or command gave an empty password.")
        }
        return line
    }

    /// How long a password command may run, a `pass` or `gpg` prompt included, before it is
    /// killed: the call blocks its thread (a cooperative one, called from a task) at most this long.
    static let passwordCommandTimeout: Duration = .seconds(120)
    /// The most a password command may print.
    static let passwordCommandOutputLimit = 64 * 1024

    /// Runs `/bin/sh -c command` (its stdin this process's, its stderr discarded) and returns what
    /// it printed. No error quotes the output or the command, either of which may hold the password.
    private static func run(_ command: String) throws -> String {
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.runBlocking(
                "/bin/sh", ["-c", command], input: .inherit, output: .collect(limit: passwordCommandOutputLimit),
                error: .null, timeout: passwordCommandTimeout)
        } catch .timedOut {
            throw ServiceError(
                .invalidConfiguration,
                "The password command did not finish within \(passwordCommandTimeout) and was stopped.")
        } catch .outputTooLarge {
            throw ServiceError(
                .invalidConfiguration, "The password command printed more than \(passwordCommandOutputLimit) bytes.")
        } catch {
            throw ServiceError(.invalidConfiguration, "The password command could not be started.")
        }
        switch result.termination {
        case .exited(0):
            return result.outputText
        case .exited(let status):
            throw ServiceError(.invalidConfiguration, "The password command exited with status \(status).")
        case .signalled(let signal):
            throw ServiceError(.invalidConfiguration, "The password command was killed by signal \(signal).")
        }
    }
}
