import StratusContract
import StratusCrypt
import StratusLocal
import StratusTestSupport
import Testing

/// The shared contract suite against `crypt` over `local`, names encrypted, one test case per
/// check. The key file uses scrypt work factor 10 so that each check's new store is quick.
@Test(
    arguments: ContractSuite(options: ContractSuite.Options(cancellationContentSize: 8 * 1_048_576)) { context in
        CryptService(
            base: try LocalService(
                root: context.scratchDirectory.appending(path: "root"), chunkSize: 1_048_576,
                changePageSize: context.changePageSize),
            password: .text("contract passphrase"), scryptWorkFactor: 10)
    }.checks)
func cryptContract(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
}

/// The contract suite against `crypt` over `local` with plain names.
@Test(
    arguments: ContractSuite(options: ContractSuite.Options(cancellationContentSize: 8 * 1_048_576)) { context in
        CryptService(
            base: try LocalService(
                root: context.scratchDirectory.appending(path: "root"), chunkSize: 1_048_576,
                changePageSize: context.changePageSize),
            password: .text("contract passphrase"), names: .plain, scryptWorkFactor: 10)
    }.checks)
func cryptPlainNamesContract(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
}
