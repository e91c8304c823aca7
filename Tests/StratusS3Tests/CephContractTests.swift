import Foundation
import StratusContract
import StratusTestSupport
import Testing

/// The shared contract suite against Ceph's RADOS Gateway (Ceph 16, one node, `CephServer`),
/// with moto's options: a versioned bucket of its own for each check, the server's conditional
/// writes measured before the check starts. On a versioned bucket Ceph 16 ignores
/// `If-None-Match: *` and refuses every `If-Match`, so the adapter declares `bestEffort` there
/// and the two racing-writer checks are skipped, by name:
/// - "preconditions: racing mustNotExist writes, exactly one wins"
/// - "preconditions: racing mustMatch writes of one version, exactly one wins"
///
/// ``cephUnversionedPreconditions`` runs them on an unversioned bucket, where Ceph honours both.
@Test(
    .enabled(if: CephServer.shouldRun, CephServer.skipReason),
    arguments: ContractSuite(options: S3ContractOptions.standard) { context in
        let service = try await S3TestServer.ceph.makeService(
            bucket: "stratus-\(context.id)", pageSize: context.changePageSize)
        _ = try await service.conditionSupport()
        return service
    }.checks
)
func cephContract(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
}

/// The contract suite's precondition checks against Ceph on an unversioned bucket (versioning =
/// off), where Ceph 16 checks `If-None-Match: *` and an unquoted `If-Match` in the write itself:
/// the adapter measures `atomic`, and the racing writers must have exactly one winner a round.
@Test(
    .enabled(if: CephServer.shouldRun, CephServer.skipReason),
    arguments: ContractSuite(options: S3ContractOptions.standard) { context in
        let service = try await S3TestServer.ceph.makeService(
            bucket: "stratus-\(context.id)", pageSize: context.changePageSize, versioning: .off)
        _ = try await service.conditionSupport()
        return service
    }.checks.filter { $0.name.hasPrefix("preconditions:") }
)
func cephUnversionedPreconditions(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
}
