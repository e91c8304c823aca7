import Foundation
import MockSupport

/// The writes of `files.create`, `files.update` and `files.delete`, and the checks they share
/// with `files.copy`.
extension DriveState {
    /// The id of a new file: the one the request body asked for (from `files.generateIds`),
    /// checked, or a new random one.
    /// - Throws: 400 `invalid` at `id` for an id Drive would not have made, 409 `duplicate`
    ///   for one in use.
    func newFileID(requested: String?) throws(DriveFailure) -> String {
        guard let requested else { return DriveState.randomID(count: 33) }
        guard requested.count >= 10,
            requested.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "invalid", message: "The provided file ID is not usable.", location: "id",
                    locationType: "other"))
        }
        guard nodes[requested] == nil, !isRoot(requested) else {
            throw DriveFailure(
                DriveErrorBody(code: 409, reason: "duplicate", message: "A file already exists with the provided ID."))
        }
        return requested
    }

    /// Creates a file or folder.
    /// - Parameters:
    ///   - metadata: The request body.
    ///   - content: The uploaded bytes, or `nil` for metadata only.
    ///   - contentType: The media's MIME type when content was uploaded.
    ///   - keepForever: `keepRevisionForever`.
    /// - Returns: The new node.
    mutating func create(_ metadata: FileMetadata, content: StoredContent?, contentType: String?, keepForever: Bool)
        throws(DriveFailure) -> DriveNode
    {
        let parentIDs = metadata.parents ?? []
        guard parentIDs.count <= 1 else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "cannotAddParent", message: "Increasing the number of parents is not allowed."))
        }
        let parent = try parentFolder(parentIDs.first ?? "root")
        let id = try newFileID(requested: metadata.id)
        let now = DriveTime.now()
        let mimeType = metadata.mimeType ?? contentType ?? "application/octet-stream"
        let name = metadata.name ?? "Untitled"
        var node = DriveNode(
            id: id, serial: nextSerial(), name: name, mimeType: mimeType, parents: [parent.id], space: parent.space,
            createdTime: metadata.createdTime ?? now, modifiedTime: metadata.modifiedTime ?? now, version: nextVersion()
        )
        node.appProperties = Self.applied(metadata.appProperties, to: [:])
        node.properties = Self.applied(metadata.properties, to: [:])
        node.description = metadata.description ?? nil
        node.starred = metadata.starred ?? false
        node.originalFilename = metadata.originalFilename
        if metadata.trashed == true {
            node.trashed = true
            node.explicitlyTrashed = true
            node.trashedTime = now
        }
        if node.isBinary {
            let revision = DriveRevision(
                id: Self.newRevisionID(), content: content ?? .empty, mimeType: mimeType,
                modifiedTime: node.modifiedTime,
                keepForever: keepForever, originalFilename: metadata.originalFilename ?? name
            )
            node.revisions = [revision]
            node.headRevisionID = revision.id
        } else if let content, content.blob.size != 0 {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "badRequest",
                    message: "Media upload is not supported for this MIME type: \(mimeType)."
                ))
        }
        nodes[id] = node
        recordChange(id, time: now)
        return node
    }

    /// Applies `files.update`: metadata, parents, trash state and new content.
    mutating func update(
        _ raw: String, metadata: FileMetadata, addParents: [String], removeParents: [String],
        content: StoredContent?, contentType: String?, keepForever: Bool
    ) throws(DriveFailure) -> DriveNode {
        var node = try node(raw)
        guard !isRoot(node.id) || (content == nil && addParents.isEmpty && removeParents.isEmpty) else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "insufficientFilePermissions",
                    message: "The user does not have sufficient permissions for this file."))
        }
        let now = DriveTime.now()
        var parents = node.parents
        for raw in removeParents {
            guard let id = resolve(raw) else { throw DriveFailure(.fileNotFound(raw)) }
            parents.removeAll { $0 == id }
        }
        for raw in addParents {
            let parent = try parentFolder(raw)
            guard parent.id != node.id, !descendants(of: node.id).contains(parent.id) else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotAddParent",
                        message: "A file cannot be a parent of itself or of its ancestors."))
            }
            guard parent.space == node.space else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotAddParent",
                        message: "Files cannot be moved into or out of the Application Data folder."))
            }
            if !parents.contains(parent.id) { parents.append(parent.id) }
        }
        if !isRoot(node.id) {
            guard parents.count <= 1 else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotAddParent",
                        message: "Increasing the number of parents is not allowed."))
            }
            guard parents.count == 1 else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "cannotRemoveParent",
                        message: "Removing the last parent of a file is not allowed."))
            }
        }
        node.parents = parents
        if let name = metadata.name { node.name = name }
        if let mimeType = metadata.mimeType, mimeType != node.mimeType {
            guard node.isBinary, !mimeType.hasPrefix("application/vnd.google-apps.") else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "fieldNotWritable",
                        message: "The resource body includes fields which are not directly writable."))
            }
            node.mimeType = mimeType
        }
        node.appProperties = Self.applied(metadata.appProperties, to: node.appProperties)
        node.properties = Self.applied(metadata.properties, to: node.properties)
        if let description = metadata.description { node.description = description }
        if let starred = metadata.starred { node.starred = starred }
        if let originalFilename = metadata.originalFilename { node.originalFilename = originalFilename }
        var trashChanged = false
        if let trashed = metadata.trashed, trashed != node.trashed {
            guard !isRoot(node.id) else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "insufficientFilePermissions",
                        message: "The user does not have sufficient permissions for this file."))
            }
            node.trashed = trashed
            node.explicitlyTrashed = trashed
            node.trashedTime = trashed ? now : nil
            trashChanged = true
        }
        if let content {
            guard node.isBinary else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 400, reason: "badRequest", message: "Media upload is not supported for this file."))
            }
            let mimeType = metadata.mimeType ?? contentType ?? node.mimeType
            if metadata.mimeType == nil, let contentType, !contentType.hasPrefix("application/vnd.google-apps.") {
                node.mimeType = contentType
            }
            let revision = DriveRevision(
                id: Self.newRevisionID(), content: content, mimeType: mimeType,
                modifiedTime: metadata.modifiedTime ?? now,
                keepForever: keepForever,
                originalFilename: metadata.originalFilename ?? node.originalFilename ?? node.name
            )
            node.revisions.append(revision)
            node.headRevisionID = revision.id
            node.modifiedTime = metadata.modifiedTime ?? now
        } else if let modifiedTime = metadata.modifiedTime {
            node.modifiedTime = modifiedTime
        }
        node.version = nextVersion()
        nodes[node.id] = node
        recordChange(node.id, time: now)
        if trashChanged {
            for child in descendants(of: node.id) {
                let version = nextVersion()
                nodes[child]?.version = version
                recordChange(child, time: now)
            }
        }
        return node
    }

    /// Deletes a file, or a folder with everything in it, for good.
    mutating func delete(_ raw: String) throws(DriveFailure) {
        let node = try node(raw)
        guard !isRoot(node.id) else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "insufficientFilePermissions",
                    message: "The user does not have sufficient permissions for this file."))
        }
        let now = DriveTime.now()
        for id in [node.id] + descendants(of: node.id) {
            let space = nodes[id]?.space
            nodes[id] = nil
            recordChange(id, removed: true, space: space, time: now)
        }
    }

    /// A map after a patch where `nil` values remove keys.
    static func applied(_ patch: [String: String?]?, to map: [String: String]) -> [String: String] {
        guard let patch else { return map }
        var result = map
        for (key, value) in patch {
            result[key] = value
        }
        return result
    }
}
