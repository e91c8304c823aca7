import Foundation

extension RemoteOptions {
    /// The option that sets a polling remote's ``PollingSchedule``: `poll_interval`.
    public static let pollIntervalOption = "poll_interval"

    /// The polling schedule a remote sets with `poll_interval`: the longest interval in seconds
    /// (`30`), or the shortest and the longest (`2-30`); decimals are allowed (`0.5-10`).
    /// - Parameter defaults: The schedule when the option is not set, whose other settings
    ///   (growth, jitter) are kept either way.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) for a value that is not one or two
    ///   positive numbers of seconds, the first no larger than the second, at most a day.
    public func pollingSchedule(default defaults: PollingSchedule = PollingSchedule()) throws -> PollingSchedule {
        guard let value = values[Self.pollIntervalOption] else { return defaults }
        let parts = value.split(separator: "-", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        let expected = "seconds as '30' (the longest interval) or '2-30' (the shortest and the longest), at most 86400"
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.map { $0 > 0 && $0 <= 86_400 } ?? false }) else {
            throw invalid(Self.pollIntervalOption, value, expected: expected)
        }
        let numbers = parts.compactMap { $0 }
        let longest = Duration.milliseconds(Int64(numbers[numbers.count - 1] * 1000))
        let shortest =
            numbers.count == 2 ? Duration.milliseconds(Int64(numbers[0] * 1000)) : min(defaults.minimum, longest)
        guard shortest <= longest else { throw invalid(Self.pollIntervalOption, value, expected: expected) }
        return PollingSchedule(minimum: shortest, maximum: longest, growth: defaults.growth, jitter: defaults.jitter)
    }
}

extension BackendOption {
    /// `poll_interval`: how often a backend that waits for changes by polling asks for them.
    public static let pollInterval = BackendOption(
        RemoteOptions.pollIntervalOption,
        summary:
            "How often to ask for changes while waiting for them, in seconds: '30' (the longest interval, when idle) or '2-30' (the shortest, after a change, and the longest). Default 2-30."
    )
}
