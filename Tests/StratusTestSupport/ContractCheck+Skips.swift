import StratusContract
import Testing

extension ContractCheck {
    /// Runs the check as a test: a failure fails it, and a skip is recorded as a warning with
    /// its reason, so it shows without failing.
    /// - Throws: What the check threw.
    public func runRecordingSkip() async throws {
        if case .skipped(let reason) = try await run() {
            Issue.record("Skipped: \(reason)", severity: .warning)
        }
    }

    /// Runs the check as a test with `fixture` as the running test's (see ``RunningFixture``),
    /// for a suite whose service factory reaches the fixture's server.
    /// - Parameter fixture: The fixture.
    /// - Throws: What the check threw.
    public func runRecordingSkip(with fixture: some Sendable) async throws {
        try await RunningFixture.with(fixture) { try await runRecordingSkip() }
    }
}

/// Every check of the contract suite in each of several runs (roots, mock options), as the
/// arguments of one parameterised test.
/// - Parameters:
///   - runs: The runs.
///   - suite: The suite of a run.
/// - Returns: Each run with each check of its suite.
public func contractChecks<Run: Sendable>(in runs: [Run], suite: (Run) -> ContractSuite) -> [(Run, ContractCheck)] {
    runs.flatMap { run in suite(run).checks.map { (run, $0) } }
}
