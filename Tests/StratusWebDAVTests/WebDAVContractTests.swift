import Foundation
import StratusContract
import Testing
import WebDAVServers

/// The shared contract suite against three WebDAV servers nobody here wrote, each started by the
/// tests on a free loopback port; every check works in a folder of its own.
private func suite(_ kind: WebDAVServerLauncher.Kind) -> [ContractCheck] {
    ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8,
            excludedChecks: knownFailures(kind)
        )
    ) { context in
        try await WebDAVTestServers.makeService(
            kind, folder: "contract-\(context.id)", pageSize: context.changePageSize)
    }.checks
}

/// Checks that fail against a server today, each a known defect listed in the module's docs and
/// in the issue that tracks the adapter; they are reported as skipped with the reason.
private func knownFailures(_ kind: WebDAVServerLauncher.Kind) -> [String: String] {
    switch kind {
    case .apache:
        return [
            "cancellation: a download cancelled midway leaves the destination as it was":
                "known defect: the 4 MiB download from Apache reported progress only at 0 and at the end in 5 of 5 attempts, so the cancel never landed mid-transfer (inconclusive)"
        ]
    case .rclone, .wsgidav:
        return [
            "cancellation: an upload cancelled midway leaves nothing partial":
                "known defect: this server writes a PUT body in place, so a cancelled upload leaves a partial file; the fix (upload to a temporary name, then MOVE) is not written"
        ]
    }
}

private func run(_ check: ContractCheck) async throws {
    if case .skipped(let reason) = try await check.run() {
        Issue.record("Skipped: \(reason)", severity: .warning)
    }
}

@Test(.enabled(if: WebDAVTestServers.apacheRuns, WebDAVTestServers.skipReason(.apache)), arguments: suite(.apache))
func apacheContract(_ check: ContractCheck) async throws {
    try await run(check)
}

@Test(.enabled(if: WebDAVTestServers.rcloneRuns, WebDAVTestServers.skipReason(.rclone)), arguments: suite(.rclone))
func rcloneContract(_ check: ContractCheck) async throws {
    try await run(check)
}

@Test(.enabled(if: WebDAVTestServers.wsgidavRuns, WebDAVTestServers.skipReason(.wsgidav)), arguments: suite(.wsgidav))
func wsgidavContract(_ check: ContractCheck) async throws {
    try await run(check)
}

@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576, cancellationContentSize: 4 * 1_048_576, concurrentUploads: 8)
    ) { context in
        try await NextcloudMockServer.makeService(folder: "contract-\(context.id)", pageSize: context.changePageSize)
    }.checks)
func nextcloudMockContract(_ check: ContractCheck) async throws {
    try await run(check)
}
