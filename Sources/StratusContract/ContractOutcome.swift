/// How a contract check ended, when it did not fail.
public enum ContractOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The service kept every promise the check looks at.
    case passed
    /// The check does not apply: the service's capability descriptor says it lacks the feature
    /// (or the adapter excluded the check with a reason). The reason says which.
    case skipped(reason: String)

    /// `passed`, or `skipped:` and the reason.
    public var description: String {
        switch self {
        case .passed: "passed"
        case .skipped(let reason): "skipped: \(reason)"
        }
    }
}
