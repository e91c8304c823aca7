import Stratus

/// The exit statuses of `stratus`, one per kind of failure, so a script can tell them apart.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case usage = 1
    case notFound = 2
    case conflict = 3
    case authentication = 4
    case unavailable = 5
    case integrity = 6
    case localFile = 7
    case configuration = 8
    case other = 9
    case interrupted = 130

    /// The status for a service error's code.
    init(_ code: ServiceError.Code) {
        switch code {
        case .notFound: self = .notFound
        case .conflict: self = .conflict
        case .unauthorized, .reauthenticationRequired, .permissionDenied: self = .authentication
        case .network, .timeout, .rateLimited, .server: self = .unavailable
        case .integrityMismatch: self = .integrity
        case .localFile: self = .localFile
        case .invalidConfiguration: self = .configuration
        case .invalidPath: self = .usage
        case .cancelled: self = .interrupted
        default: self = .other
        }
    }

    /// One line per status, for `stratus --help`.
    static let table = """
        Exit status:
          0  success
          1  usage: a bad argument, option or path
          2  not found: no such remote file, folder or version
          3  conflict: --if-absent/--if-version did not hold, or the name is taken
          4  authentication: sign-in refused or expired, or permission denied
          5  unavailable: network, timeout, rate limit or provider failure
          6  integrity: content did not match its hash; nothing was kept
          7  local file: a local file could not be read or written
          8  configuration: the configuration file or a remote's options
          9  other: unsupported, quota, invalid change token, ...
          130  interrupted
        """
}
