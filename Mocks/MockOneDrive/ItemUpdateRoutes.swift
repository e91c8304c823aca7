import Foundation
import Hummingbird
import MockSupport

/// `PATCH` of an item (rename, move, `fileSystemInfo`) and `POST /copy` with its monitor.
extension MockOneDriveServer {
    /// `PATCH` an item: `name` renames it, `parentReference` (`id`, or `path` such as
    /// `/drive/root:/a`) moves it, `fileSystemInfo` sets its client dates; other members are
    /// left alone. A name clash fails (409 `nameAlreadyExists`) unless
    /// `@microsoft.graph.conflictBehavior` says `replace` or `rename`; `If-Match` is checked.
    /// 200 with the item.
    func updateItem(_ request: inout Request, _ address: GraphAddress, _ graph: GraphRequest) async throws
        -> Response
    {
        let body = try GraphJSON.object(Data(buffer: try await request.readBody(limit: 64 * 1024)))
        let conflict = try graph.conflictBehavior(body: body, default: .fail)
        let dates = try FileSystemDates(body["fileSystemInfo"])
        let newName = body["name"]
        if let newName, !(newName is String) { throw GraphFailure.invalidRequest("name must be a string.") }
        let reference = body["parentReference"]
        if let reference, !(reference is [String: Any]) {
            throw GraphFailure.invalidRequest("parentReference must be an object.")
        }
        let condition = graph.condition
        let base = contentBaseText
        let text = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let item = try existing(address, in: &state)
            try condition.check(item)
            let parentID: String?
            if let reference = reference as? [String: Any] {
                parentID = try folderID(of: reference, in: &state)
            } else {
                parentID = item.parentID
            }
            if let parentID, newName != nil || parentID != item.parentID {
                try state.relocate(item.id, to: parentID, name: (newName as? String) ?? item.name, conflict: conflict)
            } else if newName != nil || reference != nil {
                throw GraphFailure(status: 403, code: "accessDenied", message: "The root cannot be moved or renamed.")
            }
            if dates.apply(to: &state, id: item.id) != nil, newName == nil, reference == nil {
                state.items[item.id]?.eTagVersion += 1
                state.logChange(item.id)
            }
            guard let updated = state.items[item.id] else { throw .itemNotFound() }
            return GraphJSON.text(state.json(of: updated) { self.downloadURL(base: base, version: $0) })
        }
        return Response.json(text: text)
    }

    /// `POST /copy`: copies the item into `parentReference` (its own folder when absent) under
    /// `name` (its own when absent), as Graph does: 202 with a `Location` monitor URL on the
    /// content host, which reports the copy `completed` with its `resourceId`. A name clash
    /// fails (409 `nameAlreadyExists`) unless `@microsoft.graph.conflictBehavior` (query)
    /// says `replace` or `rename`.
    func copyItem(_ request: inout Request, _ address: GraphAddress, _ graph: GraphRequest) async throws
        -> Response
    {
        let body = try GraphJSON.object(Data(buffer: try await request.readBody(limit: 64 * 1024)))
        let conflict = try graph.conflictBehavior(body: body, default: .fail)
        if let name = body["name"], !(name is String) { throw GraphFailure.invalidRequest("name must be a string.") }
        let reference = body["parentReference"]
        if let reference, !(reference is [String: Any]) {
            throw GraphFailure.invalidRequest("parentReference must be an object.")
        }
        let quota = options.quotaBytes
        let copyID = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let item = try existing(address, in: &state)
            guard let ownParent = item.parentID else { throw .invalidRequest("The root cannot be copied.") }
            let parentID =
                try (reference as? [String: Any]).map { reference throws(GraphFailure) in
                    try folderID(of: reference, in: &state)
                } ?? ownParent
            return try state.copy(
                item.id, to: parentID, name: (body["name"] as? String) ?? item.name, conflict: conflict, quota: quota)
        }
        let monitor = RandomText.make(bytes: 18)
        copyJobs.withLock { $0[monitor] = copyID }
        return Response(status: .accepted, headers: [.location: "\(contentBaseText)/monitor/\(monitor)"])
    }

    /// `GET /monitor/{id}` on the content host: the status of a copy (Graph's
    /// `asyncJobStatus`): `completed`, 100 percent, and the copy's id as `resourceId`.
    func copyStatus(monitor id: String) throws(GraphFailure) -> Response {
        guard let resourceID = copyJobs.withLock({ $0[id] }) else {
            throw .itemNotFound("The monitor was not found.")
        }
        return Response.json(
            text: GraphJSON.text([
                "operation": "ItemCopy", "percentageComplete": 100.0, "resourceId": resourceID, "status": "completed",
            ]))
    }

    /// The folder a `parentReference` names, by `id` or by `path` (`/drive/root:/a/b`).
    /// - Throws: ``GraphFailure`` 400 when it names nothing usable, 404 when it is missing.
    private func folderID(of reference: [String: Any], in state: inout GraphState) throws(GraphFailure) -> String {
        if let driveID = reference["driveId"] as? String, driveID.lowercased() != state.driveID {
            throw .invalidRequest("Items cannot be moved or copied between drives.")
        }
        let target: GraphItem?
        if let id = reference["id"] as? String {
            target = state.items[id]
        } else if let path = reference["path"] as? String, let colon = path.range(of: "root:") {
            let names = path[colon.upperBound...].split(separator: "/").map { String($0) }
            target = state.resolve(from: state.rootID, path: names.map { $0.removingPercentEncoding ?? $0 })
        } else {
            throw .invalidRequest("parentReference must name a folder by id or path.")
        }
        guard let target else { throw .itemNotFound("The destination folder does not exist.") }
        guard target.isFolder else { throw .invalidRequest("The destination is not a folder.") }
        return target.id
    }
}
