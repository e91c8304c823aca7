/// A contract check found the service breaking a promise of the ``/Stratus/Service`` protocol.
public struct ContractFailure: Error, Sendable, CustomStringConvertible {
    /// The check's name.
    public let check: String
    /// What was expected and what came back.
    public let message: String

    /// Creates a failure.
    /// - Parameters:
    ///   - check: The check's name.
    ///   - message: What was expected and what came back.
    public init(check: String, message: String) {
        self.check = check
        self.message = message
    }

    /// The check's name and the message.
    public var description: String {
        "Contract check '\(check)' failed: \(message)"
    }
}

/// A broken expectation inside a check, before the check's name is attached.
struct ExpectationFailure: Error {
    let message: String
}

/// A check that does not apply to the service, with the reason.
struct ContractSkip: Error {
    let reason: String
}

/// Fails the check unless a condition holds.
/// - Parameters:
///   - condition: The condition.
///   - message: What was expected and what came back.
/// - Throws: ``ExpectationFailure``.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition {
        throw ExpectationFailure(message: message())
    }
}

/// Fails the check unless two values are equal.
/// - Parameters:
///   - actual: What came back.
///   - expected: What the contract promises.
///   - what: What the values are, such as `"size reported by metadata(of:)"`.
/// - Throws: ``ExpectationFailure``.
func expectEqual<Value: Equatable>(_ actual: Value, _ expected: Value, _ what: @autoclosure () -> String) throws {
    if actual != expected {
        throw ExpectationFailure(message: "\(what()): expected \(expected), got \(actual)")
    }
}

/// A failure to throw from a check.
/// - Parameter message: What was expected and what came back.
func failure(_ message: String) -> ExpectationFailure {
    ExpectationFailure(message: message)
}
