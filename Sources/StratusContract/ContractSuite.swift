import Foundation
public import Stratus

/// The promises of the ``/Stratus/Service`` protocol as a list of checks, to run against any
/// adapter from its test target.
///
/// Each check makes a fresh service through the factory (its own namespace), works in its own
/// scratch folder, and cleans up. An adapter's whole test file:
///
/// ```swift
/// import StratusContract
/// import StratusLocal
/// import Testing
///
/// @Test(arguments: ContractSuite { context in
///     try LocalService(root: context.scratchDirectory.appending(path: "root"),
///                      changePageSize: context.changePageSize)
/// }.checks)
/// func contract(_ check: ContractCheck) async throws {
///     if case .skipped(let reason) = try await check.run() {
///         Issue.record("Skipped: \(reason)", severity: .warning)
///     }
/// }
/// ```
///
/// The suite reads the service's ``/Stratus/ServiceCapabilities``: boundary sizes come from
/// ``/Stratus/ServiceCapabilities/chunkSize`` and
/// ``/Stratus/ServiceCapabilities/largestSingleUpload`` (configure the adapter with small chunks
/// and the boundaries are crossed in milliseconds), and a check
/// of a feature the descriptor says is absent ends as ``ContractOutcome/skipped(reason:)``,
/// never silently.
public struct ContractSuite: Sendable {
    /// Limits and exclusions for a run of the suite.
    public struct Options: Sendable {
        /// The largest content a round-trip check moves; a boundary size above it is skipped with
        /// a note. Default 64 MiB.
        public var largestRoundTrip: Int64
        /// The size of the content the cancellation checks cancel midway (at least 4 chunks are
        /// used). Default 32 MiB.
        public var cancellationContentSize: Int64
        /// How many uploads the concurrency check runs at once. Default 16.
        public var concurrentUploads: Int
        /// The size of each body in the racing-writers checks, in bytes (capped at
        /// ``largestRoundTrip``). It must be large enough that sending it takes time, so an
        /// adapter or server that checks a precondition before the body arrives and writes after
        /// it has a window the race can hit. Default 4 MiB.
        public var racingContentSize: Int64
        /// How many writers race in each round of the racing-writers checks. Default 8.
        public var racingWriters: Int
        /// How many rounds each racing-writers check runs; every round must have exactly one
        /// winner. Default 2.
        public var racingRounds: Int
        /// The change feed page size the factory is asked to use, through
        /// ``ContractContext/changePageSize``. Default 4.
        public var changePageSize: Int
        /// Checks not to run, by name, each with the reason; they are reported as skipped with
        /// that reason.
        public var excludedChecks: [String: String]

        /// Creates options.
        /// - Parameters:
        ///   - largestRoundTrip: The largest content a round-trip check moves.
        ///   - cancellationContentSize: The content size of the cancellation checks.
        ///   - concurrentUploads: How many uploads run at once in the concurrency check.
        ///   - changePageSize: The change feed page size asked of the factory.
        ///   - excludedChecks: Checks not to run, by name, with the reason.
        ///   - racingContentSize: The body size of each racing writer.
        ///   - racingWriters: How many writers race in each round (at least 2).
        ///   - racingRounds: How many rounds each racing check runs (at least 1).
        public init(
            largestRoundTrip: Int64 = 64 * 1_048_576,
            cancellationContentSize: Int64 = 32 * 1_048_576,
            concurrentUploads: Int = 16,
            changePageSize: Int = 4,
            excludedChecks: [String: String] = [:],
            racingContentSize: Int64 = 4 * 1_048_576,
            racingWriters: Int = 8,
            racingRounds: Int = 2
        ) {
            self.largestRoundTrip = largestRoundTrip
            self.cancellationContentSize = cancellationContentSize
            self.concurrentUploads = max(2, concurrentUploads)
            self.changePageSize = max(1, changePageSize)
            self.excludedChecks = excludedChecks
            self.racingContentSize = max(1, racingContentSize)
            self.racingWriters = max(2, racingWriters)
            self.racingRounds = max(1, racingRounds)
        }
    }

    /// Makes the service a check runs against.
    public typealias ServiceFactory = @Sendable (ContractContext) async throws -> any Service

    private let makeService: ServiceFactory
    private let options: Options

    /// Creates the suite.
    /// - Parameters:
    ///   - options: Limits and exclusions.
    ///   - makeService: Makes a service for a check; called again with the same context when a
    ///     check needs a second instance of the same service (see ``ContractContext``).
    public init(options: Options = Options(), makeService: @escaping ServiceFactory) {
        self.options = options
        self.makeService = makeService
    }

    /// Every check, each to be run on its own; only those whose name contains the value of the
    /// environment variable `STRATUS_CONTRACT_CHECKS` when it is set and not empty (to run a few
    /// checks against every adapter while working on them).
    public var checks: [ContractCheck] {
        let definitions: [ContractCheck.Definition] =
            Self.roundTripChecks + Self.nameChecks + Self.folderChecks + Self.metadataChecks
            + Self.notFoundChecks + Self.preconditionChecks + Self.versionChecks
            + Self.changeFeedChecks + Self.reReadChecks + Self.changeWaitingChecks + Self.concurrencyChecks
            + Self.cancellationChecks
            + Self.transferChecks
        let only = ProcessInfo.processInfo.environment["STRATUS_CONTRACT_CHECKS"] ?? ""
        return definitions.filter { only.isEmpty || $0.name.contains(only) }.map {
            ContractCheck(definition: $0, makeService: makeService, options: options)
        }
    }
}
