import Foundation
import Stratus

extension ContractSuite {
    /// Calls on paths and versions that do not exist throw notFound.
    static var notFoundChecks: [ContractCheck.Definition] {
        [missingPath, missingVersion]
    }

    private static let missingPath = ContractCheck.Definition("not found: every call on a path never written") { run in
        let present = try await run.upload(.bytes(Data("neighbour".utf8)), to: try run.path("present.txt"))
        let missing = try run.path("missing/never-written.txt")
        try await run.expectError(.notFound, "metadata(of: \(missing))") {
            try await run.service.metadata(of: missing)
        }
        let absent = try await run.service.metadataIfPresent(of: missing)
        try expect(absent == nil, "metadataIfPresent(of: \(missing)) returned \(String(describing: absent)), not nil")
        let found = try await run.service.metadataIfPresent(of: present.path)
        try expect(
            found?.version == present.version,
            "metadataIfPresent(of: \(present.path)) returned \(String(describing: found)), not the file just written")
        let destination = run.localFile("never-created.bin")
        try await run.expectError(.notFound, "download(\(missing))") {
            try await run.service.download(missing, to: destination)
        }
        try expect(
            !FileManager.default.fileExists(atPath: destination.path),
            "a failed download of \(missing) created the local file \(destination.path)")
        try await run.expectError(.notFound, "delete(\(missing))") {
            try await run.service.delete(missing)
        }
        try await run.expectError(.notFound, "list(missing), a folder never created") {
            try await run.service.list(try run.path("missing"))
        }
        if run.capabilities.supportsVersions {
            try await run.expectError(.notFound, "versions(of: \(missing))") {
                try await run.service.versions(of: missing)
            }
        }
    }

    private static let missingVersion = ContractCheck.Definition("not found: an unknown version of a file") { run in
        try run.requireVersions()
        let path = try run.path("versioned.txt")
        let uploaded = try await run.upload(.bytes(Data("only version".utf8)), to: path)
        let unknown = VersionID("no-such-version-\(run.context.id)")
        let destination = run.localFile("unknown-version.bin")
        try await run.expectError(.notFound, "download(\(path), version: \(unknown))") {
            try await run.service.download(path, version: unknown, to: destination)
        }
        try expect(
            !FileManager.default.fileExists(atPath: destination.path),
            "a failed download of an unknown version created the local file \(destination.path)")
        try await run.expectError(.notFound, "restore(\(path), to: \(unknown))") {
            try await run.service.restore(path, to: unknown)
        }
        try expectEqual(
            try await run.service.metadata(of: path).version, uploaded.version,
            "current version after the refused restore")
    }
}
