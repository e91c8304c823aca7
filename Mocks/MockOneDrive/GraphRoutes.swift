import Foundation
import Hummingbird
import MockSupport
import StratusDigest

/// The dispatch of `/v1.0/**` requests, and the item, children, drive and delete routes.
extension MockOneDriveServer {
    /// Answers a Graph request by its address and method.
    func route(_ request: inout Request) async throws -> Response {
        guard let address = GraphAddress.parse(request.uri.path) else {
            throw GraphFailure(
                status: 400, code: "invalidRequest", message: "Invalid request: the mock does not serve this URL.")
        }
        let graph = GraphRequest(request, scheme: options.scheme)
        try store.withState { (state: inout GraphState) throws(GraphFailure) in
            state.applyDrift()
            if let driveID = address.driveID, driveID.lowercased() != state.driveID {
                throw .itemNotFound("The drive \(driveID) does not exist.")
            }
        }
        let method = request.method
        switch (method, address.action) {
        case (.get, []):
            return address.base == .drive ? driveResource() : try getItem(address, graph)
        case (.delete, []):
            return try deleteItem(address, graph)
        case (.patch, []):
            return try await updateItem(&request, address, graph)
        case (.post, ["copy"]):
            return try await copyItem(&request, address, graph)
        case (.get, ["children"]):
            return try listChildren(address, graph)
        case (.post, ["children"]):
            return try await createChild(&request, address, graph)
        case (.get, ["content"]):
            return try contentRedirect(address, versionID: nil)
        case (.put, ["content"]):
            return try await simpleUpload(request, address, graph)
        case (.post, ["createUploadSession"]):
            return try await createUploadSession(&request, address, graph)
        case (.get, ["delta"]):
            return try delta(address, graph)
        case (.get, ["versions"]):
            return try listVersions(address)
        case (.get, let action) where action.count == 2 && action[0] == "versions":
            return try getVersion(address, versionID: action[1])
        case (.get, let action) where action.count == 3 && action[0] == "versions" && action[2] == "content":
            return try contentRedirect(address, versionID: action[1])
        case (.post, let action) where action.count == 3 && action[0] == "versions" && action[2] == "restoreVersion":
            return try restoreVersion(address, versionID: action[1])
        default:
            throw GraphFailure(
                status: 400, code: "invalidRequest",
                message: "Invalid request: \(method) is not supported on this resource.")
        }
    }

    /// The id of the item an address names, or `nil` when its path leads nowhere.
    /// - Throws: ``GraphFailure`` 404 when the base item is missing.
    func resolve(_ address: GraphAddress, in state: inout GraphState) throws(GraphFailure) -> GraphItem? {
        let baseID: String
        switch address.base {
        case .drive, .root: baseID = state.rootID
        case .appRoot:
            guard let app = state.appRoot() else { throw .itemNotFound() }
            baseID = app.id
        case .item(let id):
            guard state.items[id] != nil else { throw .itemNotFound("Item not found") }
            baseID = id
        }
        return state.resolve(from: baseID, path: address.path)
    }

    /// The item an address names.
    /// - Throws: ``GraphFailure`` 404 `itemNotFound` when there is none.
    func existing(_ address: GraphAddress, in state: inout GraphState) throws(GraphFailure) -> GraphItem {
        guard let item = try resolve(address, in: &state) else { throw .itemNotFound("Item does not exist") }
        return item
    }

    /// The id of the folder an address's path starts from.
    func baseID(of address: GraphAddress, in state: inout GraphState) throws(GraphFailure) -> String {
        switch address.base {
        case .drive, .root: return state.rootID
        case .appRoot:
            guard let app = state.appRoot() else { throw .itemNotFound() }
            return app.id
        case .item(let id):
            guard state.items[id] != nil else { throw .itemNotFound("Item not found") }
            return id
        }
    }

    /// `GET /me/drive`.
    func driveResource() -> Response {
        let quota = options.quotaBytes
        let text = store.read { state -> String in
            let used = state.usedBytes
            var quotaObject: [String: Any] = ["used": used, "deleted": 0, "state": "normal"]
            if let quota {
                quotaObject["total"] = quota
                quotaObject["remaining"] = max(0, quota - used)
            }
            return GraphJSON.text([
                "id": state.driveID,
                "driveType": "personal",
                "name": "OneDrive",
                "owner": ["user": ["displayName": "Stratus Mock", "id": state.driveID]],
                "quota": quotaObject,
            ])
        }
        return Response.json(text: text)
    }

    /// `GET` an item.
    func getItem(_ address: GraphAddress, _ graph: GraphRequest) throws(GraphFailure) -> Response {
        let selection = GraphJSON.selection(graph.query["$select"])
        let base = contentBaseText
        let text = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let item = try existing(address, in: &state)
            let object = state.json(of: item) { self.downloadURL(base: base, version: $0) }
            return GraphJSON.text(GraphJSON.select(object, selection))
        }
        return Response.json(text: text)
    }

    /// `GET /children`: a page of a folder's children by name, `@odata.nextLink` to the next.
    func listChildren(_ address: GraphAddress, _ graph: GraphRequest) throws(GraphFailure) -> Response {
        let selection = GraphJSON.selection(graph.query["$select"])
        let size = try graph.pageSize(default: options.defaultPageSize, maximum: options.maximumPageSize)
        var after: String?
        if let token = graph.query["$skiptoken"] {
            guard let bytes = Base64URL.decode(token) else { throw .invalidRequest("Invalid $skiptoken.") }
            after = String(decoding: bytes, as: UTF8.self)
        }
        let base = contentBaseText
        let text = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let folder = try existing(address, in: &state)
            guard folder.isFolder, let index = state.folders[folder.id] else {
                throw .invalidRequest("The item is not a folder.")
            }
            let start = after.map { index.upperBound($0) } ?? 0
            let end = min(index.sortedNames.count, start + size)
            let folderPath = state.referencePath(ofFolder: folder.id)
            var values: [Any] = []
            values.reserveCapacity(end - start)
            for key in index.sortedNames[start..<end] {
                guard let id = index.byName[key], let child = state.items[id] else { continue }
                let object = state.json(of: child, folderPath: folderPath) { self.downloadURL(base: base, version: $0) }
                values.append(GraphJSON.select(object, selection))
            }
            var page: [String: Any] = ["value": values]
            if end < index.sortedNames.count, end > 0 {
                let last = index.sortedNames[end - 1]
                var link = graph.linkBase + "?$top=\(size)&$skiptoken=" + Base64URL.encode(Array(last.utf8))
                if let select = graph.query["$select"], let encoded = Self.queryEncoded(select) {
                    link += "&$select=" + encoded
                }
                page["@odata.nextLink"] = link
            }
            return GraphJSON.text(page)
        }
        return Response.json(text: text)
    }

    /// `POST /children` with a `folder` facet: makes a folder (conflict behaviour `fail` by
    /// default): 201, or 200 for a folder already there under `replace`.
    func createChild(_ request: inout Request, _ address: GraphAddress, _ graph: GraphRequest) async throws
        -> Response
    {
        let body = try GraphJSON.object(Data(buffer: try await request.readBody(limit: 64 * 1024)))
        guard let name = body["name"] as? String else { throw GraphFailure.invalidRequest("The name is missing.") }
        guard body["folder"] != nil else {
            throw GraphFailure.invalidRequest("Only folders can be made this way: give a folder facet.")
        }
        let conflict = try graph.conflictBehavior(body: body, default: .fail)
        let base = contentBaseText
        let (text, created) = try store.withState {
            (state: inout GraphState) throws(GraphFailure) -> (String, Bool) in
            let parent = try existing(address, in: &state)
            let (folder, created) = try state.createFolder(in: parent.id, name: name, conflict: conflict)
            return (GraphJSON.text(state.json(of: folder) { self.downloadURL(base: base, version: $0) }), created)
        }
        return Response.json(text: text, status: created ? .created : .ok)
    }

    /// `DELETE` an item (and everything below it): 204.
    func deleteItem(_ address: GraphAddress, _ graph: GraphRequest) throws(GraphFailure) -> Response {
        try store.withState { (state: inout GraphState) throws(GraphFailure) in
            let item = try existing(address, in: &state)
            try state.delete(item.id, condition: graph.condition)
        }
        return Response(status: .noContent)
    }

    /// A query value percent-encoded for a link.
    static func queryEncoded(_ value: String) -> String? {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+")
        return value.addingPercentEncoding(withAllowedCharacters: allowed)
    }
}
