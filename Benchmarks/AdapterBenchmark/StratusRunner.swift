import BenchmarkSupport

/// Runs one Stratus workload in a child process (this executable, `child ...`), the server's
/// endpoint handed over through the environment.
struct StratusRunner {
    let processes: MeasuredProcess
    let executable: String
    let endpoint: MockEndpoint
    /// More environment for the child (such as `StratusClients.singleCommitsVariable`).
    var environment: [String: String] = [:]

    func run(_ arguments: [String], label: String) async -> Result<ProcessOutcome, BenchmarkFailure> {
        do {
            return .success(
                try await processes.run(
                    executable, ["child"] + arguments, environment: endpoint.environment.merging(environment) { $1 },
                    label: "\(endpoint.provider.rawValue)-stratus-\(label)"
                ).checked("the Stratus child"))
        } catch {
            Progress.say("  Stratus \(arguments.first ?? "") failed: \(error)")
            return .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))
        }
    }
}
