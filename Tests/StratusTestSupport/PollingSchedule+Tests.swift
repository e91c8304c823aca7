import Stratus

extension PollingSchedule {
    /// A schedule for tests of polling services: every 0.2 to 1 second, so waiting for changes
    /// (and the contract suite's checks of it) takes moments.
    public static let quickForTests = PollingSchedule(minimum: .milliseconds(200), maximum: .seconds(1))
}
