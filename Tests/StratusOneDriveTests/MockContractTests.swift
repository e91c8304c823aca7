import Foundation
import MockOneDrive
import StratusContract
import StratusOneDrive
import Testing

/// The shared contract suite against the mock Graph, in the app folder: each check gets its own
/// mock. Fragments are 320 KiB (Graph's unit) and simple uploads stop at 64 KiB, so upload
/// sessions are exercised by every file above 64 KiB; the delta page size is the suite's.
/// Custom metadata is skipped by the suite's own rule: the adapter declares it unsupported
/// (Graph keeps none for personal OneDrive files).
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8
        )
    ) { context in
        guard let fixture = MockFixture.current else {
            throw CancellationError()
        }
        return try fixture.makeService(pageSize: context.changePageSize)
    }.checks)
func mockContractAppFolder(_ check: ContractCheck) async throws {
    try await MockFixture.withRunning { fixture in
        try await MockFixture.$current.withValue(fixture) {
            if case .skipped(let reason) = try await check.run() {
                Issue.record("Skipped: \(reason)", severity: .warning)
            }
        }
    }
}

/// The contract suite again, rooted at a folder of the drive (made on first use, named after
/// the check).
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8
        )
    ) { context in
        guard let fixture = MockFixture.current else {
            throw CancellationError()
        }
        return try fixture.makeService(
            root: .folder("Stratus/contract-\(context.id)"), pageSize: context.changePageSize)
    }.checks)
func mockContractDriveFolder(_ check: ContractCheck) async throws {
    try await MockFixture.withRunning { fixture in
        try await MockFixture.$current.withValue(fixture) {
            if case .skipped(let reason) = try await check.run() {
                Issue.record("Skipped: \(reason)", severity: .warning)
            }
        }
    }
}

/// The contract suite with the mock's eTag drift on (each item's eTag changes once more after an
/// upload, as OneDrive's post-processing does): preconditions, versions and races must hold as
/// they do without it, since writes are conditioned on the cTag.
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8
        )
    ) { context in
        guard let fixture = MockFixture.current else {
            throw CancellationError()
        }
        return try fixture.makeService(pageSize: context.changePageSize)
    }.checks)
func mockContractWithETagDrift(_ check: ContractCheck) async throws {
    try await MockFixture.withRunning(options: MockOneDriveServer.Options(eTagDriftAfterUpload: true)) { fixture in
        try await MockFixture.$current.withValue(fixture) {
            if case .skipped(let reason) = try await check.run() {
                Issue.record("Skipped: \(reason)", severity: .warning)
            }
        }
    }
}
