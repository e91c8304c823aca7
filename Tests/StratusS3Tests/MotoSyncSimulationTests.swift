import Foundation
import Synchronization
import SyncSimulation
import Testing

/// StratusSync's multi-device simulation on moto's S3: versions from `ListObjectVersions`, an
/// emulated change feed, atomic conditional writes.
@Test(.enabled(if: MotoServer.shouldRun, MotoServer.skipReason))
func syncSimulationOnMoto() async throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: "stratus-sync-moto-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let service = try await MotoServer.makeService(bucket: MotoServer.uniqueBucket("sync"))
    let options = SyncSimulation.Options(devices: 3, rounds: 8, recordsPerType: 4, seed: 7, maximumFileSize: 4_000)
    let report = try await SyncSimulation.run(service: service, folder: folder, options: options)
    #expect(report.problems.isEmpty, "\(report)")
    #expect(report.edits > 15)
    #expect(report.recordsCompared > 0)
    #expect(report.writesCurrentOrArchived + report.writesInHistory > 5)
}
