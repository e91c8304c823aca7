import Foundation

/// Runs a test body with a fresh, empty folder of its own, removed afterwards, so tests can run
/// in parallel without seeing each other's files.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("StratusTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
