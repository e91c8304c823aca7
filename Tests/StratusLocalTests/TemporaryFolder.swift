import Foundation
import Stratus
import StratusLocal
import Testing

/// A folder of its own for one test, under the system's temporary folder.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "stratus-local-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The store root inside the folder.
    var root: URL { url.appending(path: "root", directoryHint: .isDirectory) }

    /// A file in the folder (not created).
    func file(_ name: String) -> URL {
        url.appending(path: name, directoryHint: .notDirectory)
    }

    /// Opens a local service on the folder's root.
    func service(maximumVersions: Int = 100, changePageSize: Int = 500) throws -> LocalService {
        try LocalService(root: root, maximumVersions: maximumVersions, changePageSize: changePageSize)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs a call that must throw a ``ServiceError`` with a given code, and returns the error.
@discardableResult
func expectServiceError<Value>(
    _ code: ServiceError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ call: () async throws -> Value
) async -> ServiceError? {
    do {
        let value = try await call()
        Issue.record("Expected ServiceError(\(code)), got \(value)", sourceLocation: sourceLocation)
    } catch let error as ServiceError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected ServiceError(\(code)), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
