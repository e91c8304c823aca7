import Foundation
import Stratus

extension ContractSuite {
    /// Version history: listing, reading old versions, restoring.
    static var versionChecks: [ContractCheck.Definition] {
        [threeVersions, oldVersionContent, restoreOldVersion, sameBytesTwice]
    }

    /// Three contents of different sizes, uploaded in order to one path.
    private static func writeThreeVersions(_ run: ContractRun) async throws -> (
        path: RemotePath, contents: [Data], files: [RemoteFile]
    ) {
        let path = try run.path("history/save.json")
        let contents = [10, 20, 30].map { SampleContent.data(count: $0, seed: "version-\($0)") }
        var files: [RemoteFile] = []
        for content in contents {
            files.append(try await run.upload(.bytes(content), to: path))
        }
        return (path, contents, files)
    }

    private static func versions(of path: RemotePath, _ run: ContractRun) async throws -> [FileVersion] {
        do {
            return try await run.service.versions(of: path)
        } catch {
            throw failure("versions(of: \(path)) threw \(error)")
        }
    }

    private static let threeVersions = ContractCheck.Definition("versions: three writes are listed newest first") {
        run in
        try run.requireVersions()
        let (path, contents, files) = try await writeThreeVersions(run)
        let versions = try await versions(of: path, run)
        try expectEqual(
            versions.map(\.id), files.reversed().map(\.version), "version ids listed by versions(of:), newest first")
        try expectEqual(Set(versions.map(\.id)).count, 3, "number of distinct version ids")
        try expectEqual(versions.map(\.size), [30, 20, 10], "sizes listed by versions(of:)")
        for (version, content) in zip(versions, contents.reversed()) {
            if let hash = version.contentHash {
                try expectEqual(hash.value, try run.hash(of: content), "hash of version \(version.id)")
            }
        }
        try expectEqual(
            try await run.service.metadata(of: path).version, versions[0].id,
            "current version compared with the first listed")
    }

    private static let oldVersionContent = ContractCheck.Definition(
        "versions: an old version downloads its old content"
    ) { run in
        try run.requireVersions()
        let (path, contents, files) = try await writeThreeVersions(run)
        for (file, content) in zip(files, contents) {
            let (url, described) = try await run.download(path, version: file.version)
            try expectEqual(
                described.version, file.version, "version reported by the download of version \(file.version)")
            try expectEqual(try LocalFiles.contents(of: url), content, "content of version \(file.version)")
        }
    }

    private static let restoreOldVersion = ContractCheck.Definition(
        "versions: restore makes old content current and keeps history"
    ) { run in
        try run.requireVersions()
        let (path, contents, files) = try await writeThreeVersions(run)
        let restored: RemoteFile
        do {
            restored = try await run.service.restore(path, to: files[0].version)
        } catch {
            throw failure("restore(\(path), to: \(files[0].version)) threw \(error)")
        }
        try run.expectDescribes(restored, size: 10, hash: try run.hash(of: contents[0]), "file returned by the restore")
        try expect(
            !files.map(\.version).contains(restored.version),
            "the restore returned version \(restored.version), which already existed; history must only grow")
        try await run.expectContent(of: path, contents[0], "current content after the restore")
        let versions = try await versions(of: path, run)
        try expectEqual(
            versions.map(\.id), [restored.version] + files.reversed().map(\.version),
            "versions listed after the restore, newest first")
    }

    private static let sameBytesTwice = ContractCheck.Definition(
        "versions: the same bytes written twice are two versions"
    ) { run in
        try run.requireVersions()
        let path = try run.path("twice.txt")
        let content = Data("identical".utf8)
        let first = try await run.upload(.bytes(content), to: path)
        let second = try await run.upload(.bytes(content), to: path)
        try expect(
            first.version != second.version, "two writes of the same bytes both returned version \(first.version)")
        let versions = try await versions(of: path, run)
        try expectEqual(
            versions.map(\.id), [second.version, first.version], "versions listed after writing the same bytes twice")
    }
}
