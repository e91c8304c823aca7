import Foundation

/// A fresh folder for one test, removed afterwards.
func withTemporaryFolder<T>(_ body: (String) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appending(path: "stratus-fs-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try await body(folder)
}
