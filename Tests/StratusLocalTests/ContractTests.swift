import StratusContract
import StratusLocal
import StratusTestSupport
import Testing

/// The shared contract suite against the local backend, one test case per check. A 1 MiB chunk
/// size puts the round-trip boundaries right around the backend's 1 MiB copy buffer; the
/// cancellations move 8 MiB (8 chunks).
@Test(
    arguments: ContractSuite(options: ContractSuite.Options(cancellationContentSize: 8 * 1_048_576)) { context in
        try LocalService(
            root: context.scratchDirectory.appending(path: "root"),
            chunkSize: 1_048_576,
            changePageSize: context.changePageSize
        )
    }.checks)
func contract(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
}
