import DepotAdapter
import Foundation
import Hummingbird
import MockDepot
import MockSupport
import Stratus

/// A mock Depot server running on a free port, in a temporary folder of its own, and the adapter
/// pointed at it.
struct DepotFixture: Sendable {
    /// The mock, for its request log and fault rules.
    let depot: MockDepotServer
    /// Where it listens.
    let baseURL: URL

    /// The fixture a contract check's factory uses, set for the length of the check.
    @TaskLocal static var current: DepotFixture?

    /// A retry policy with short waits, so tests of retries take milliseconds.
    static let quickRetries = RetryPolicy(
        maximumAttempts: 3, initialDelay: .milliseconds(5), maximumDelay: .milliseconds(20))

    /// An adapter for the mock.
    func makeService(changePageSize: Int = 500, listPageSize: Int = 500, retryPolicy: RetryPolicy = quickRetries) throws
        -> DepotService
    {
        try DepotService(
            configuration: DepotConfiguration(
                baseURL: baseURL, apiKey: depot.apiKey,
                listPageSize: listPageSize, changePageSize: changePageSize, retryPolicy: retryPolicy
            ))
    }

    /// Runs `body` with a fresh mock, then stops it and removes its folder.
    static func withRunning<Result: Sendable>(_ body: @Sendable (DepotFixture) async throws -> Result) async throws
        -> Result
    {
        let folder = FileManager.default.temporaryDirectory.appending(path: "depot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let depot = try MockDepotServer(storageDirectory: folder)
        let router = Router()
        depot.addRoutes(to: router)
        return try await MockServer.withRunning(router) { baseURL in
            try await body(DepotFixture(depot: depot, baseURL: baseURL))
        }
    }
}

/// A temporary folder for a test's local files, removed afterwards.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appending(path: "depot-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}
