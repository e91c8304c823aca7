import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// Path ↔ id resolution: the root, folders (created on demand, once), and a folder's entries.
extension DriveService {
    /// The id of the root folder; `nil` when it is a My Drive folder that does not exist yet and
    /// `create` is false.
    func rootFolderID(create: Bool) async throws -> String? {
        if let known = knownRootID { return known }
        switch configuration.root {
        case .appDataFolder:
            // The alias works in queries, but parents are reported by real id: learn it.
            let file = try await transport.json(
                "files.get", .get, transport.apiURL("files/appDataFolder", [("fields", "id")]), as: DriveFile.self)
            rememberRootID(file.id)
            return file.id
        case .folder:
            let id: String?
            if create {
                // Single flight: concurrent first writes must not create the root twice.
                id = try await index.creatingRoot { [self] in
                    guard let id = try await findRootFolder(create: true) else {
                        throw ServiceError(.server, "The root folder could not be created.")
                    }
                    return id
                }
            } else {
                id = try await findRootFolder(create: false)
            }
            if let id { rememberRootID(id) }
            return id
        }
    }

    /// Walks (and with `create`, builds) the root folder's path from the top of My Drive.
    private func findRootFolder(create: Bool) async throws -> String? {
        var parent = configuration.root.topAlias
        for component in rootComponents {
            let entries = try await children(of: parent, named: component)
            if let folder = DriveNameRule.preferred(entries.filter(\.isFolder)) {
                parent = folder.id
            } else if create {
                parent = try await createFolderOnce(named: component, in: parent)
            } else {
                return nil
            }
        }
        return parent
    }

    /// The id of a folder below the root.
    /// - Parameter create: Whether missing folders are created.
    /// - Returns: The id, or `nil` when the folder does not exist and `create` is false.
    /// - Throws: ``/Stratus/ServiceError/Code/conflict`` when creating and a file is where a
    ///   folder is needed.
    func folderID(_ path: RemotePath, create: Bool) async throws -> String? {
        guard let parent = path.parent else { return try await rootFolderID(create: create) }
        if let known = await index.folderID(path) { return known }
        guard let parentID = try await folderID(parent, create: create) else { return nil }
        let entries = try await children(of: parentID, named: path.name)
        if let folder = DriveNameRule.preferred(entries.filter(\.isFolder)) {
            await index.record(path, id: folder.id, isFolder: true)
            return folder.id
        }
        guard create else { return nil }
        if entries.contains(where: { !$0.isFolder }) {
            throw ServiceError(.conflict, "\(path) is a file, so nothing can be written below it.")
        }
        return try await index.creatingFolder(path) { [self] in
            try await createFolderOnce(named: path.name, in: parentID)
        }
    }

    /// Creates a folder unless one with that name appeared meanwhile, and returns the folder the
    /// name means once the create is done (see ``settleCreatedFolder(_:named:in:)``: another
    /// client may have created one at the same time). A create whose outcome is unknown is
    /// repeated only after a lookup finds no such folder, so a retry never makes a duplicate.
    func createFolderOnce(named name: String, in parentID: String) async throws -> String {
        let body = try DriveJSONBody.encode([
            "name": .string(name),
            "mimeType": .string(DriveFile.folderMimeType),
            "parents": .array([.string(parentID)]),
        ])
        let url = transport.apiURL("files", [("fields", DriveFile.fields)])
        let existing = try await children(of: parentID, named: name)
        if let folder = DriveNameRule.preferred(existing.filter(\.isFolder)) { return folder.id }
        if existing.contains(where: { !$0.isFolder }) {
            throw ServiceError(.conflict, "A file named \(name.debugDescription) is where a folder is needed.")
        }
        let created = try await configuration.retryPolicy.runWrite(lookFirst: {
            DriveNameRule.preferred(try await children(of: parentID, named: name).filter(\.isFolder))
        }) { _ in
            try await transport.json("files.create", .post, url, body: body, as: DriveFile.self, repetition: .never)
        }
        return try await settleCreatedFolder(created, named: name, in: parentID)
    }

    /// The untrashed entries of a folder, every page; with a name, only the entries whose name
    /// is exactly that (scalar for scalar).
    func children(of folderID: String, named name: String?) async throws -> [DriveFile] {
        var all: [DriveFile] = []
        var pageToken: String?
        var paging = PagingGuard(action: "files.list")
        repeat {
            var query = [
                ("q", DriveQuery.children(of: folderID, named: name)),
                ("spaces", configuration.root.space),
                ("fields", "nextPageToken,files(\(DriveFile.fields))"),
                ("pageSize", String(configuration.pageSize)),
            ]
            if let pageToken { query.append(("pageToken", pageToken)) }
            let page = try await transport.json(
                "files.list", .get, transport.apiURL("files", query), as: DriveFileList.self)
            all += page.files
            pageToken = try page.nextPageToken.map { try paging.admit($0) }
        } while pageToken != nil
        guard let name else { return all.filter { $0.trashed != true } }
        return all.filter { $0.trashed != true && DriveNameRule.sameName($0.name, name) }
    }

    /// The entries named like a path's last component in its folder, and the folder's id;
    /// `nil` when the folder does not exist. A miss under a cached folder id checks that the
    /// folder still exists, and looks the path up again from the root when it does not.
    func entries(at path: RemotePath) async throws -> (parentID: String, entries: [DriveFile])? {
        guard let parent = path.parent else { return nil }
        for attempt in 1...2 {
            guard let parentID = try await folderID(parent, create: false) else { return nil }
            let entries = try await children(of: parentID, named: path.name)
            if !entries.isEmpty || parent.isRoot || attempt == 2 { return (parentID, entries) }
            if try await fileExists(id: parentID) { return (parentID, entries) }
            await index.forgetFolders(along: parent)
        }
        return nil
    }

    /// The file at a path, or `nil` when none is there (a folder is not a file).
    func existingFile(at path: RemotePath) async throws -> DriveFile? {
        guard let found = try await entries(at: path) else { return nil }
        guard let file = DriveNameRule.preferred(found.entries.filter { !$0.isFolder && !$0.isGoogleNative }) else {
            return nil
        }
        await index.record(path, id: file.id, isFolder: false)
        return file
    }

    /// The file at a path.
    /// - Throws: ``/Stratus/ServiceError/Code/notFound`` when no file is there.
    func requireFile(at path: RemotePath) async throws -> DriveFile {
        guard !path.isRoot else {
            throw ServiceError(.notFound, "The root is a folder, not a file.")
        }
        try DriveService.pathRules.validate(path)
        guard let file = try await existingFile(at: path) else {
            throw ServiceError(.notFound, "No file is at \(path).")
        }
        return file
    }

    /// Whether an id names an untrashed file or folder.
    func fileExists(id: String) async throws -> Bool {
        do {
            let file = try await transport.json(
                "files.get", .get, transport.apiURL("files/\(id)", [("fields", "id,trashed")]), as: DriveFile.self)
            return file.trashed != true
        } catch let error as ServiceError where error.code == .notFound {
            return false
        }
    }
}
