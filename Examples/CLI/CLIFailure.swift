import Foundation
import Stratus

/// A failure `stratus` reports: what went wrong, what to do next, and the exit status.
struct CLIFailure: Error, CustomStringConvertible {
    var status: ExitStatus
    /// The error's kind as a stable word for `--json` output, such as `notFound`.
    var kind: String
    var message: String
    /// What the user can do about it, or `nil` when the message already says.
    var nextStep: String?

    init(_ status: ExitStatus, kind: String? = nil, _ message: String, next nextStep: String? = nil) {
        self.status = status
        self.kind = kind ?? "\(status)"
        self.message = message
        self.nextStep = nextStep
    }

    var description: String {
        guard let nextStep else { return message }
        return "\(message)\n→ \(nextStep)"
    }

    /// A service error explained for a person, with a next step that fits the remote.
    /// - Parameters:
    ///   - error: The error.
    ///   - remote: The remote the command talked to, when there was one.
    ///   - path: The remote path the command was about, when there was one.
    ///   - configFile: The configuration file in use, for configuration errors.
    static func explaining(_ error: ServiceError, remote: String?, path: RemotePath? = nil, configFile: URL?)
        -> CLIFailure
    {
        let name = remote ?? "NAME"
        let file = path.map(\.string) ?? "PATH"
        let next: String?
        switch error.code {
        case .notFound:
            next = "List what is there with `stratus ls \(name):`."
        case .conflict:
            next =
                "Someone else changed it first. See the current version with `stratus stat \(name):\(file)`, then repeat with `--if-version` that version (or drop the precondition to overwrite)."
        case .unauthorized, .reauthenticationRequired:
            next =
                "Run `stratus login \(name)` to sign in again (or, for a remote with a fixed access_token, set a fresh one with `stratus remote add \(name) --replace ...`)."
        case .permissionDenied:
            next =
                "The account may not do this; check the remote's `root` and the app's permissions (`stratus remote show \(name)`)."
        case .rateLimited:
            let wait = error.retryAfter.map { " after \($0.components.seconds) s" } ?? " in a while"
            next = "The provider asks to slow down; try again\(wait)."
        case .network, .timeout, .server:
            next = "Check the connection and the remote's URLs (`stratus remote show \(name)`), then try again."
        case .integrityMismatch:
            next =
                "Nothing was kept. Try again; if it keeps failing, the stored copy may be damaged: see `stratus versions \(name):\(file)`."
        case .localFile:
            next = "Check that the local path exists and that you may read (or write) it."
        case .invalidConfiguration:
            let fileNote = configFile.map { " in \($0.path)" } ?? ""
            next =
                "Fix the remote with `stratus remote add \(name) --replace --type TYPE --option KEY=VALUE ...` or edit the configuration\(fileNote); `stratus remote show \(name)` shows it."
        case .invalidChangeToken:
            next = "Take a fresh token with `stratus changes \(name)` and relist with `stratus ls \(name):` to resync."
        case .unsupported:
            next = "This remote's type does not offer that; see its options with `stratus remote show \(name)`."
        case .quotaExceeded:
            next = "Free some space in the account, then try again."
        default:
            next = nil
        }
        return CLIFailure(ExitStatus(error.code), kind: "\(error.code)", error.message, next: next)
    }
}
