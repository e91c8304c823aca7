import Foundation
import StratusContract
import StratusTestSupport
import Testing
import WebDAVServers

/// The shared contract suite against three WebDAV servers nobody here wrote, each started by the
/// tests on a free loopback port; every check works in a folder of its own.
private func suite(_ kind: WebDAVServerLauncher.Kind) -> [ContractCheck] {
    ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576,
            cancellationContentSize: 4 * 1_048_576,
            concurrentUploads: 8
        )
    ) { context in
        try await WebDAVTestServers.makeService(
            kind, folder: "contract-\(context.id)", pageSize: context.changePageSize)
    }.checks
}

private func run(_ check: ContractCheck) async throws {
    try await check.runRecordingSkip()
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

/// The Nextcloud mock with a PUT limit (``NextcloudMockServer/limitedPutSize``, 512 KiB) and the
/// adapter's cutoff at that limit with 256 KiB chunks, so the boundary round trips, the progress
/// check and the cancelled upload (4 MiB, 16 chunks) go through chunked upload, and a PUT above
/// the cutoff would be refused.
@Test(
    arguments: ContractSuite(
        options: ContractSuite.Options(
            largestRoundTrip: 4 * 1_048_576, cancellationContentSize: 4 * 1_048_576, concurrentUploads: 8)
    ) { context in
        try await NextcloudMockServer.makeService(
            folder: "contract-\(context.id)", pageSize: context.changePageSize,
            chunking: NextcloudMockServer.Chunking(
                threshold: NextcloudMockServer.limitedPutSize, chunkSize: 256 * 1024, limitedServer: true))
    }.checks)
func nextcloudMockContract(_ check: ContractCheck) async throws {
    try await run(check)
}
