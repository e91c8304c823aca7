import Foundation
import Stratus
import Testing

@Suite("PollingSchedule")
struct PollingScheduleTests {
    /// Minimum, maximum and growth in seconds, quiet polls, the expected interval in seconds
    /// (with no jitter: random 0.5).
    static let cases: [(Double, Double, Double, Int, Double)] = [
        (2, 30, 2, 0, 2), (2, 30, 2, 1, 4), (2, 30, 2, 2, 8), (2, 30, 2, 3, 16), (2, 30, 2, 4, 30),
        (2, 30, 2, 100, 30), (2, 30, 2, Int.max, 30), (1, 10, 3, 1, 3), (1, 10, 3, 2, 9), (1, 10, 3, 3, 10),
        (5, 5, 2, 0, 5), (5, 5, 2, 7, 5), (0.5, 60, 1, 0, 0.5), (0.5, 60, 1, Int.max, 0.5), (2, 30, 2, -3, 2),
    ]

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test(arguments: cases)
    func intervals(_ example: (Double, Double, Double, Int, Double)) {
        let (minimum, maximum, growth, quiet, expected) = example
        let schedule = PollingSchedule(
            minimum: .milliseconds(Int64(minimum * 1000)), maximum: .milliseconds(Int64(maximum * 1000)),
            growth: growth, jitter: 0.2)
        let interval = Self.seconds(schedule.interval(afterQuietPolls: quiet, random: 0.5))
        #expect(abs(interval - expected) < 0.001, "after \(quiet) quiet polls: \(interval) s")
    }

    @Test func jitterStaysWithinItsShareAndReachesBothEnds() {
        let schedule = PollingSchedule(minimum: .seconds(10), maximum: .seconds(10), jitter: 0.25)
        for random in stride(from: 0.0, through: 1.0, by: 0.05) {
            let interval = Self.seconds(schedule.interval(afterQuietPolls: 0, random: random))
            #expect(interval >= 7.5 - 0.001 && interval <= 12.5 + 0.001, "random \(random): \(interval) s")
        }
        #expect(Self.seconds(schedule.interval(afterQuietPolls: 0, random: 0)) == 7.5)
        #expect(Self.seconds(schedule.interval(afterQuietPolls: 0, random: 1)) == 12.5)
        // Out-of-range and undefined randoms are clamped, or read as "no jitter".
        #expect(schedule.interval(afterQuietPolls: 0, random: -4) == schedule.interval(afterQuietPolls: 0, random: 0))
        #expect(schedule.interval(afterQuietPolls: 0, random: 9) == schedule.interval(afterQuietPolls: 0, random: 1))
        #expect(schedule.interval(afterQuietPolls: 0, random: .nan) == .seconds(10))
        #expect(schedule.longestInterval == .milliseconds(12_500))
    }

    @Test func theCapIncludesJitterAndNeverGoesBeyondItsLongestInterval() {
        let schedule = PollingSchedule(minimum: .seconds(1), maximum: .seconds(30), growth: 2, jitter: 0.1)
        for quiet in 0..<50 {
            for random in [0.0, 0.3, 0.5, 0.9, 1.0] {
                #expect(schedule.interval(afterQuietPolls: quiet, random: random) <= schedule.longestInterval)
            }
        }
    }

    @Test func valuesOutOfRangeAreBroughtIntoIt() {
        let tiny = PollingSchedule(minimum: .zero, maximum: .zero, growth: 0.5, jitter: 3)
        #expect(tiny.minimum == .milliseconds(10))
        #expect(tiny.maximum == .milliseconds(10))
        #expect(tiny.growth == 1)
        #expect(tiny.jitter == 0.5)
        let inverted = PollingSchedule(minimum: .seconds(9), maximum: .seconds(3), growth: .nan, jitter: -1)
        #expect(inverted.maximum == .seconds(9))
        #expect(inverted.growth == 2)
        #expect(inverted.jitter == 0)
        let defaults = PollingSchedule()
        #expect(defaults.minimum == .seconds(2) && defaults.maximum == .seconds(30))
    }

    @Test func declarationsFollowTheSchedule() {
        let schedule = PollingSchedule(minimum: .seconds(1), maximum: .seconds(20), jitter: 0.1)
        let waiting = ChangeWaiting.polling(schedule)
        #expect(waiting.mechanism == .polling)
        #expect(waiting.wakeBound == .seconds(23))
        #expect(waiting.polling == schedule)
        #expect(ChangeWaiting.longPoll(wakeBound: .seconds(5)).mechanism == .longPoll)
        #expect(ChangeWaiting.notification(wakeBound: .seconds(1)).wakeBound == .seconds(1))
        #expect(ChangeWaiting.unavailable.mechanism == .unavailable)
    }

    @Test func capabilitiesDefaultToPollingOrToUnavailableWithoutAFeed() {
        func capabilities(_ feed: ServiceCapabilities.ChangeFeed) -> ServiceCapabilities {
            ServiceCapabilities(
                hashAlgorithm: .sha256, largestSingleUpload: 1, chunkSize: 1, conditionalWrites: .atomic,
                supportsVersions: false, changeFeed: feed, supportsCustomMetadata: false,
                pathRules: PathRules(isCaseSensitive: true))
        }
        #expect(capabilities(.native).changeWaiting == .polling())
        #expect(capabilities(.emulated).changeWaiting == .polling())
        #expect(capabilities(.unavailable).changeWaiting == .unavailable)
    }
}

@Suite("poll_interval")
struct PollIntervalOptionTests {
    static func options(_ value: String?) -> RemoteOptions {
        RemoteOptions(remoteName: "saves", typeName: "drive", values: value.map { ["poll_interval": $0] } ?? [:])
    }

    /// The option's value, the expected shortest and longest interval in milliseconds.
    static let valid: [(String, Int64, Int64)] = [
        ("30", 2000, 30_000), ("2-30", 2000, 30_000), ("0.5-10", 500, 10_000), (" 1 - 5 ", 1000, 5000),
        ("1", 1000, 1000), ("60-60", 60_000, 60_000), ("86400", 2000, 86_400_000),
    ]

    @Test(arguments: valid)
    func validValues(_ example: (String, Int64, Int64)) throws {
        let (value, shortest, longest) = example
        let defaults = PollingSchedule(growth: 3, jitter: 0.3)
        let schedule = try Self.options(value).pollingSchedule(default: defaults)
        #expect(schedule.minimum == .milliseconds(shortest))
        #expect(schedule.maximum == .milliseconds(longest))
        #expect(schedule.growth == 3)
        #expect(schedule.jitter == 0.3)
    }

    @Test func withoutTheOptionTheDefaultStands() throws {
        let defaults = PollingSchedule(minimum: .seconds(7), maximum: .seconds(70))
        #expect(try Self.options(nil).pollingSchedule(default: defaults) == defaults)
        #expect(try Self.options(nil).pollingSchedule() == PollingSchedule())
    }

    @Test(arguments: ["", "abc", "0", "-5", "5-2", "1-2-3", "nan", "inf", "100000", "2-", "-", "1,5"])
    func invalidValuesAreRefusedNamingTheOption(_ value: String) {
        #expect {
            _ = try Self.options(value).pollingSchedule()
        } throws: { error in
            guard let error = error as? ServiceError else { return false }
            return error.code == .invalidConfiguration && error.message.contains("'poll_interval'")
                && error.message.contains("Remote 'saves'") && error.message.contains(value.debugDescription)
        }
    }

    @Test func theOptionIsDescribedForEveryPollingBackend() {
        #expect(BackendOption.pollInterval.name == "poll_interval")
        #expect(BackendOption.pollInterval.summary.contains("2-30"))
    }
}
