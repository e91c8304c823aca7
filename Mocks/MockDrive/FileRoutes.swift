import Foundation
import Hummingbird
import MockSupport

/// `files.get`, `files.list`, metadata-only `files.create` and `files.update`, `files.delete`.
extension MockDriveServer {
    /// A JSON answer: the resource narrowed to the request's `fields` (or the default ones).
    func answer(_ resource: [String: Any], request: Request, schema: FieldSchema, defaultFields: String)
        throws(DriveFailure) -> Response
    {
        try answer(resource, query: DriveQueryParameters(request), schema: schema, defaultFields: defaultFields)
    }

    /// A JSON answer narrowed to the `fields` of a query.
    func answer(_ resource: [String: Any], query: DriveQueryParameters, schema: FieldSchema, defaultFields: String)
        throws(DriveFailure) -> Response
    {
        let mask = try query.mask(schema: schema, default: defaultFields)
        return .json(
            text: DriveJSON.text(mask.apply(resource)), headers: [.contentType: "application/json; charset=UTF-8"])
    }

    /// A request body that must be a JSON object (metadata), read up to 1 MiB.
    func metadataBody(_ request: inout Request) async throws -> [String: Any] {
        let body = try await request.readBody(limit: 1 << 20)
        return try DriveJSON.object(Data(body.readableBytesView))
    }

    func getFile(_ request: Request, id: String) throws -> Response {
        let query = DriveQueryParameters(request)
        let (node, resource) = try store.withState { state throws(DriveFailure) in
            let node = try state.node(id)
            return (node, state.resource(node))
        }
        if query["alt"] == "media" {
            guard node.isBinary, let head = node.head else {
                throw DriveFailure(
                    DriveErrorBody(
                        code: 403, reason: "fileNotDownloadable",
                        message:
                            "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                        location: "alt"
                    ))
            }
            return try media(head.blob, contentType: node.mimeType, request: request)
        }
        if let alt = query["alt"], alt != "json" {
            throw DriveFailure(.invalidParameter("alt", message: "Invalid value '\(alt)'."))
        }
        return try answer(resource, request: request, schema: .file, defaultFields: DefaultFields.file)
    }

    func listFiles(_ request: Request) throws -> Response {
        let query = DriveQueryParameters(request)
        let pageSize = try query.pageSize(default: 100, maximum: options.maximumPageSize)
        let filter: DriveQuery
        do { filter = try DriveQuery(parsing: query["q"] ?? "") } catch {
            throw DriveFailure(.invalidParameter("q"))
        }
        let ordering: FileOrdering
        do { ordering = try FileOrdering(parsing: query["orderBy"]) } catch {
            throw DriveFailure(.invalidParameter("orderBy"))
        }
        var spaces: Set<DriveSpace> = []
        for name in (query["spaces"] ?? "drive").split(separator: ",") {
            switch name.trimmingOptionalWhiteSpace {
            case "drive": spaces.insert(.drive)
            case "appDataFolder": spaces.insert(.appDataFolder)
            case "photos": break
            default: throw DriveFailure(.invalidParameter("spaces"))
            }
        }
        if let corpora = query["corpora"], corpora != "user" {
            guard corpora == "allDrives" || corpora == "drive" || corpora == "domain" else {
                throw DriveFailure(.invalidParameter("corpora"))
            }
        }
        let binding = [query["q"] ?? "", query["orderBy"] ?? "", query["spaces"] ?? "drive"].joined(separator: "\u{1}")
            .utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        let bindingText = String(binding, radix: 36)
        var offset = 0
        if let token = query["pageToken"] {
            guard let found = OffsetPageToken.offset(of: token, binding: bindingText) else {
                throw DriveFailure(.invalidParameter("pageToken"))
            }
            offset = found
        }
        // A bad `fields` is refused by `answer` below, after the checks that come first.
        let fileFields = DriveNode.nestedFields(
            (try? query.mask(schema: .fileList, default: DefaultFields.fileList)) ?? .all, "files")
        let (files, hasMore) = store.withState { state in
            let matching = state.matchingFiles(filter, ordering: ordering, spaces: spaces, binding: bindingText)
            let page = matching.dropFirst(offset).prefix(pageSize)
            return (
                page.compactMap { id in state.nodes[id].map { state.resource($0, fields: fileFields) } },
                offset + page.count < matching.count
            )
        }
        var list: [String: Any] = ["kind": "drive#fileList", "incompleteSearch": false, "files": files]
        if hasMore { list["nextPageToken"] = OffsetPageToken.make(offset: offset + pageSize, binding: bindingText) }
        return try answer(list, request: request, schema: .fileList, defaultFields: DefaultFields.fileList)
    }

    func createMetadataOnly(_ request: inout Request) async throws -> Response {
        let query = DriveQueryParameters(request)
        if let uploadType = query["uploadType"] {
            throw DriveFailure(
                .invalidParameter("uploadType", message: "Invalid upload type '\(uploadType)' for a metadata request."))
        }
        let metadata = try FileMetadata(json: try await metadataBody(&request), isUpdate: false)
        let keepForever = try query.bool("keepRevisionForever", default: false)
        let resource = try store.withState { state throws(DriveFailure) in
            // Two statements: `state.resource(try state.create(...))` would copy the whole state
            // (every file) to call `resource` on its value from before the create.
            let node = try state.create(metadata, content: nil, contentType: nil, keepForever: keepForever)
            return state.resource(node)
        }
        return try answer(resource, request: request, schema: .file, defaultFields: DefaultFields.file)
    }

    func updateMetadataOnly(_ request: inout Request, id: String) async throws -> Response {
        let query = DriveQueryParameters(request)
        let metadata = try FileMetadata(json: try await metadataBody(&request), isUpdate: true)
        let resource = try commitUpdate(id: id, metadata: metadata, content: nil, contentType: nil, query: query)
        return try answer(resource, query: query, schema: .file, defaultFields: DefaultFields.file)
    }

    /// Applies `files.update` with the query's `addParents`, `removeParents` and
    /// `keepRevisionForever`.
    /// - Returns: The file's full resource.
    func commitUpdate(
        id: String, metadata: FileMetadata, content: StoredContent?, contentType: String?, query: DriveQueryParameters
    ) throws -> [String: Any] {
        let keepForever = try query.bool("keepRevisionForever", default: false)
        let addParents = query.list("addParents")
        let removeParents = query.list("removeParents")
        return try store.withState { state throws(DriveFailure) in
            let node = try state.update(
                id, metadata: metadata, addParents: addParents, removeParents: removeParents,
                content: content, contentType: contentType, keepForever: keepForever
            )
            return state.resource(node)
        }
    }

    /// Applies `files.create` with content and the query's `keepRevisionForever`.
    /// - Returns: The new file's full resource.
    func commitCreate(metadata: FileMetadata, content: StoredContent, contentType: String?, query: DriveQueryParameters)
        throws -> [String: Any]
    {
        let keepForever = try query.bool("keepRevisionForever", default: false)
        return try store.withState { state throws(DriveFailure) in
            let node = try state.create(metadata, content: content, contentType: contentType, keepForever: keepForever)
            return state.resource(node)
        }
    }

    /// `files.generateIds`: ids a later `files.create` may use (`id` in the body).
    func generateIDs(_ request: Request) throws -> Response {
        let query = DriveQueryParameters(request)
        var count = 10
        if let text = query["count"] {
            guard let number = Int(text), (1...1000).contains(number) else {
                throw DriveFailure(
                    .invalidParameter(
                        "count", message: "Invalid value '\(text)'. Values must be within the range: [1, 1000]"))
            }
            count = number
        }
        let space = query["space"] ?? "drive"
        guard space == "drive" || space == "appDataFolder" else { throw DriveFailure(.invalidParameter("space")) }
        let ids = (0..<count).map { _ in DriveState.randomID(count: 33) }
        let generated: [String: Any] = ["kind": "drive#generatedIds", "space": space, "ids": ids]
        let schema = FieldSchema.leaves(["kind", "space", "ids"])
        return try answer(generated, query: query, schema: schema, defaultFields: "kind,space,ids")
    }

    func deleteFile(id: String) throws -> Response {
        try store.withState { state throws(DriveFailure) in try state.delete(id) }
        return Response(status: .noContent)
    }
}
