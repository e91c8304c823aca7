import DepotAdapter
import Stratus
import StratusContract
import Testing

/// The contract suite against the Depot adapter and its mock, a fresh mock for each check.
///
/// Depot sends a file in one request, so its chunk is the whole file (5 GiB): the checks at
/// chunk boundaries are above `largestRoundTrip` and end as skipped, with the reason.
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8
        )
    ) { context in
        guard let fixture = DepotFixture.current else { throw CancellationError() }
        return try fixture.makeService(changePageSize: context.changePageSize, listPageSize: 2)
    }.checks)
func depotContract(_ check: ContractCheck) async throws {
    try await DepotFixture.withRunning { fixture in
        try await DepotFixture.$current.withValue(fixture) {
            if case .skipped(let reason) = try await check.run() {
                Issue.record("Skipped: \(reason)", severity: .warning)
            }
        }
    }
}
