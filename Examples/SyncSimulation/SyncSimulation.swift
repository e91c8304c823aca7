/// The shared vocabulary of the simulation's remotes: the adversarial simulation itself is
/// `AdversarialSimulation`, its schedules `SimulationSchedule`, its checker
/// `HistoryChecker`.
public enum SyncSimulation {
    /// Turns injected faults on or off (a mock's fault rules); `nil` runs without faults.
    public typealias FaultSwitch = @Sendable (_ on: Bool) async throws -> Void
}
