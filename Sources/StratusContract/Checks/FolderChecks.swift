import Foundation
import Stratus

extension ContractSuite {
    /// Nested paths, listings of folders, and files that cannot go where a folder or file is.
    static var folderChecks: [ContractCheck.Definition] {
        [nestedPaths, fileWhereFolderIs, fileBelowFile]
    }

    private static let nestedPaths = ContractCheck.Definition("folders: nested paths and list() of a folder") { run in
        let written = ["nested/a/b/c/d.txt", "nested/a/b/e.txt", "nested/a/f.txt", "nested/g.txt", "outside.txt"]
        for name in written {
            _ = try await run.upload(.bytes(Data(name.utf8)), to: try run.path(name))
        }
        let expectations: [(folder: String, files: Set<String>)] = [
            ("nested/a/b/c", ["nested/a/b/c/d.txt"]),
            ("nested/a/b", ["nested/a/b/c/d.txt", "nested/a/b/e.txt"]),
            ("nested", ["nested/a/b/c/d.txt", "nested/a/b/e.txt", "nested/a/f.txt", "nested/g.txt"]),
            ("", Set(written)),
        ]
        for (folder, files) in expectations {
            let listed = try await run.service.list(try run.path(folder))
            try expectEqual(
                Set(listed.map(\.path.string)), files, "paths listed by list(\(folder.isEmpty ? "root" : folder))")
            try expectEqual(
                listed.count, files.count,
                "number of entries listed by list(\(folder.isEmpty ? "root" : folder)) (each file once, no folders)")
        }
        for name in written {
            try await run.expectContent(of: try run.path(name), Data(name.utf8), "content of \(name)")
        }
        try await run.expectError(.notFound, "metadata(of: nested/a/b), a folder") {
            try await run.service.metadata(of: try run.path("nested/a/b"))
        }
        try await run.expectError(.notFound, "list(nested/missing), a folder that does not exist") {
            try await run.service.list(try run.path("nested/missing"))
        }
    }

    private static let fileWhereFolderIs = ContractCheck.Definition(
        "folders: a file cannot be written where a folder is"
    ) { run in
        let child = try run.path("folder/child.txt")
        _ = try await run.upload(.bytes(Data("child".utf8)), to: child)
        try await run.expectError(.conflict, "upload to folder, where a folder with a file is") {
            try await run.service.upload(from: .bytes(Data("in the way".utf8)), to: try run.path("folder"))
        }
        let listed = try await run.service.list(.root)
        try expectEqual(listed.map(\.path.string), ["folder/child.txt"], "paths listed after the refused upload")
        try await run.expectContent(
            of: child, Data("child".utf8), "content of folder/child.txt after the refused upload")
    }

    private static let fileBelowFile = ContractCheck.Definition("folders: a file cannot be written below a file") {
        run in
        let parent = try run.path("file.txt")
        _ = try await run.upload(.bytes(Data("a file".utf8)), to: parent)
        try await run.expectError(.conflict, "upload to file.txt/child.txt, below a file") {
            try await run.service.upload(from: .bytes(Data("below".utf8)), to: try run.path("file.txt/child.txt"))
        }
        let listed = try await run.service.list(.root)
        try expectEqual(listed.map(\.path.string), ["file.txt"], "paths listed after the refused upload")
        try await run.expectContent(of: parent, Data("a file".utf8), "content of file.txt after the refused upload")
    }
}
