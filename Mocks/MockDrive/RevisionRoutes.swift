import Foundation
import Hummingbird

/// `revisions.list`, `revisions.get` (metadata or `alt=media`), `revisions.update` and
/// `revisions.delete`.
extension MockDriveServer {
    private func revisionNotFound(_ id: String) -> DriveFailure {
        DriveFailure(
            DriveErrorBody(code: 404, reason: "notFound", message: "Revision not found: \(id).", location: "revisionId")
        )
    }

    /// A file that has revisions.
    private func revisedNode(_ state: DriveState, _ fileID: String) throws(DriveFailure) -> DriveNode {
        let node = try state.node(fileID)
        guard node.isBinary else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "revisionsNotSupported", message: "The file does not support revisions."))
        }
        return node
    }

    func listRevisions(_ request: Request, fileID: String) throws -> Response {
        let query = DriveQueryParameters(request)
        let pageSize = try query.pageSize(default: 200, maximum: options.maximumPageSize)
        let revisions = try store.withState { state throws(DriveFailure) in
            try revisedNode(state, fileID).revisions.map(\.resource)
        }
        var offset = 0
        if let token = query["pageToken"] {
            guard let found = OffsetPageToken.offset(of: token, binding: "revisions:\(fileID)") else {
                throw DriveFailure(.invalidParameter("pageToken"))
            }
            offset = found
        }
        let page = Array(revisions.dropFirst(offset).prefix(pageSize))
        var list: [String: Any] = ["kind": "drive#revisionList", "revisions": page]
        if offset + page.count < revisions.count {
            list["nextPageToken"] = OffsetPageToken.make(offset: offset + page.count, binding: "revisions:\(fileID)")
        }
        return try answer(list, query: query, schema: .revisionList, defaultFields: DefaultFields.revisionList)
    }

    func getRevision(_ request: Request, fileID: String, revisionID: String) throws -> Response {
        let query = DriveQueryParameters(request)
        let revision = try store.withState { state throws(DriveFailure) in
            let node = try revisedNode(state, fileID)
            let id = revisionID == "head" ? (node.head?.id ?? "") : revisionID
            guard let revision = node.revisions.first(where: { $0.id == id }) else {
                throw revisionNotFound(revisionID)
            }
            return revision
        }
        if query["alt"] == "media" {
            return try media(revision.blob, contentType: revision.mimeType, request: request)
        }
        return try answer(revision.resource, query: query, schema: .revision, defaultFields: DefaultFields.revision)
    }

    func updateRevision(_ request: inout Request, fileID: String, revisionID: String) async throws -> Response {
        let body = try await metadataBody(&request)
        for key in body.keys.sorted()
        where !["keepForever", "published", "publishAuto", "publishedOutsideDomain", "kind", "id"].contains(key) {
            throw DriveFailure(
                DriveErrorBody(
                    code: 403, reason: "fieldNotWritable",
                    message: "The resource body includes fields which are not directly writable."))
        }
        var keepForever: Bool?
        if let raw = body["keepForever"], !(raw is NSNull) {
            guard DriveJSON.isBoolean(raw), let number = raw as? NSNumber else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 400, reason: "invalid", message: "Invalid value for field 'keepForever'.",
                        location: "keepForever", locationType: "other"))
            }
            keepForever = number.boolValue
        }
        let revision = try store.withState { state throws(DriveFailure) in
            var node = try revisedNode(state, fileID)
            guard let index = node.revisions.firstIndex(where: { $0.id == revisionID }) else {
                throw revisionNotFound(revisionID)
            }
            if let keepForever {
                if keepForever, !node.revisions[index].keepForever, node.revisions.filter(\.keepForever).count >= 200 {
                    throw DriveFailure(
                        DriveErrorBody(
                            code: 403, reason: "tooManyKeepForeverRevisions",
                            message: "The file has reached the maximum of 200 revisions kept forever."))
                }
                node.revisions[index].keepForever = keepForever
            }
            state.nodes[node.id] = node
            return node.revisions[index]
        }
        return try answer(revision.resource, request: request, schema: .revision, defaultFields: DefaultFields.revision)
    }

    func deleteRevision(fileID: String, revisionID: String) throws -> Response {
        try store.withState { state throws(DriveFailure) in
            var node = try revisedNode(state, fileID)
            guard let index = node.revisions.firstIndex(where: { $0.id == revisionID }) else {
                throw revisionNotFound(revisionID)
            }
            guard node.revisions.count > 1 else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 400, reason: "cannotDeleteOnlyRevision",
                        message: "The only revision of a file cannot be deleted."))
            }
            let wasHead = node.head?.id == revisionID
            node.revisions.remove(at: index)
            if wasHead, let newHead = node.revisions.last {
                node.headRevisionID = newHead.id
                node.mimeType = newHead.mimeType
                node.version = state.nextVersion()
                state.nodes[node.id] = node
                state.recordChange(node.id)
            } else {
                state.nodes[node.id] = node
            }
        }
        return Response(status: .noContent)
    }
}
