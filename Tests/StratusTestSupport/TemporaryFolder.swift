import Foundation

/// A fresh, empty folder of one test's own under the system's temporary folder, so tests can run
/// in parallel without seeing each other's files. The test removes it with ``remove()`` (usually
/// in a `defer`), or runs in `withTemporaryFolder`, which removes it.
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder; `prefix` starts its name, to tell which tests left it behind.
    public init(prefix: String = "stratus-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appending(path: "\(prefix)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder's file-system path.
    public var path: String { url.path }

    /// A file in the folder (not created).
    public func file(_ name: String) -> URL {
        url.appending(path: name, directoryHint: .notDirectory)
    }

    /// The names of everything in the folder, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a fresh, empty folder of its own, removed afterwards.
public func withTemporaryFolder<Result>(
    prefix: String = "stratus-tests",
    _ body: (URL) async throws -> Result
) async throws -> Result {
    let folder = try TemporaryFolder(prefix: prefix)
    defer { folder.remove() }
    return try await body(folder.url)
}

/// Runs `body` with a fresh, empty folder of its own, removed afterwards (for tests that do not
/// suspend).
public func withTemporaryFolder<Result>(
    prefix: String = "stratus-tests",
    _ body: (URL) throws -> Result
) throws -> Result {
    let folder = try TemporaryFolder(prefix: prefix)
    defer { folder.remove() }
    return try body(folder.url)
}
