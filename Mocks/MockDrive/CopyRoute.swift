import Foundation
import Hummingbird
import MockSupport

/// `files.copy`: `POST /drive/v3/files/{fileId}/copy`.
extension MockDriveServer {
    /// Copies a file, applying the request body's metadata with patch semantics, and answers
    /// with the new file narrowed to `fields`.
    ///
    /// Query parameters: `keepRevisionForever` pins the copy's revision; `supportsAllDrives`,
    /// `supportsTeamDrives`, `ignoreDefaultVisibility`, `enforceSingleParent` and
    /// `copyComments` must be booleans and change nothing here (one user, no shared drives,
    /// no comments); `ocrLanguage`, `includeLabels` and `includePermissionsForView` are
    /// accepted and ignored.
    func copyFile(_ request: inout Request, id: String) async throws -> Response {
        let query = DriveQueryParameters(request)
        let keepForever = try query.bool("keepRevisionForever", default: false)
        for flag in [
            "supportsAllDrives", "supportsTeamDrives", "ignoreDefaultVisibility", "enforceSingleParent", "copyComments",
        ] {
            _ = try query.bool(flag, default: false)
        }
        let metadata = try FileMetadata(json: try await metadataBody(&request), isUpdate: false)
        let resource = try store.withState { state throws(DriveFailure) in
            // Two statements, so that `resource` reads the state after the copy (see
            // `createMetadataOnly`).
            let node = try state.copy(id, metadata: metadata, keepForever: keepForever)
            return state.resource(node)
        }
        return try answer(resource, query: query, schema: .file, defaultFields: DefaultFields.file)
    }
}

extension DriveState {
    /// Copies a file: a new id (or the body's, from `files.generateIds`), its own single
    /// revision holding the source's head content (the same blob, so the same `md5Checksum`),
    /// in the body's parent or else the source's. The body's fields apply with patch
    /// semantics over the source's (`appProperties` and `properties` merge, a `null` value
    /// removing a key); without a `name` the copy is called `Copy of <name>`, as Drive names
    /// copies. It is not starred or trashed unless the body says so, and its times are now
    /// unless the body gives them.
    /// - Parameters:
    ///   - raw: The source's id.
    ///   - metadata: The request body.
    ///   - keepForever: `keepRevisionForever`, for the copy's revision.
    /// - Returns: The new file.
    /// - Throws: ``DriveFailure``: 404 `notFound` for a missing source or parent; 403
    ///   `cannotCopyFile` for a folder ("Folders cannot be copied", as the reference says); 403
    ///   `cannotAddParent` for more than one parent; 400 `invalid` at `parents` for a parent
    ///   that is not a folder; 403 `fieldNotWritable` for a `mimeType` that would turn the
    ///   copy into a Google Docs type; the id errors of ``newFileID(requested:)``.
    mutating func copy(_ raw: String, metadata: FileMetadata, keepForever: Bool) throws(DriveFailure) -> DriveNode {
        let source = try node(raw)
        guard !source.isFolder else {
            throw DriveFailure(
                DriveErrorBody(code: 403, reason: "cannotCopyFile", message: "This file cannot be copied by the user."))
        }
        let parentIDs = metadata.parents ?? source.parents
        guard parentIDs.count <= 1 else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "cannotAddParent", message: "Increasing the number of parents is not allowed."))
        }
        let parent = try parentFolder(parentIDs.first ?? "root")
        if let mimeType = metadata.mimeType, mimeType != source.mimeType,
            source.isBinary != !mimeType.hasPrefix("application/vnd.google-apps.")
        {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "fieldNotWritable",
                    message: "The resource body includes fields which are not directly writable."))
        }
        let id = try newFileID(requested: metadata.id)
        let now = DriveTime.now()
        let name = metadata.name ?? "Copy of \(source.name)"
        var copy = DriveNode(
            id: id, serial: nextSerial(), name: name, mimeType: metadata.mimeType ?? source.mimeType,
            parents: [parent.id], space: parent.space, createdTime: metadata.createdTime ?? now,
            modifiedTime: metadata.modifiedTime ?? now, version: nextVersion()
        )
        copy.appProperties = Self.applied(metadata.appProperties, to: source.appProperties)
        copy.properties = Self.applied(metadata.properties, to: source.properties)
        copy.description = metadata.description ?? source.description
        copy.starred = metadata.starred ?? false
        copy.originalFilename = metadata.originalFilename ?? source.originalFilename
        if metadata.trashed == true {
            copy.trashed = true
            copy.explicitlyTrashed = true
            copy.trashedTime = now
        }
        if copy.isBinary {
            let revision = DriveRevision(
                id: Self.newRevisionID(), content: source.head?.content ?? .empty, mimeType: copy.mimeType,
                modifiedTime: copy.modifiedTime, keepForever: keepForever,
                originalFilename: copy.originalFilename ?? name
            )
            copy.revisions = [revision]
            copy.headRevisionID = revision.id
        }
        nodes[id] = copy
        recordChange(id, time: now)
        return copy
    }
}
