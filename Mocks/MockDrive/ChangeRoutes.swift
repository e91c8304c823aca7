import Foundation
import Hummingbird

/// `changes.getStartPageToken` and `changes.list`.
extension MockDriveServer {
    func startPageToken(_ request: Request) throws -> Response {
        let next = store.withState { $0.nextSequence }
        let token: [String: Any] = ["kind": "drive#startPageToken", "startPageToken": String(next)]
        return try answer(token, request: request, schema: .startPageToken, defaultFields: DefaultFields.startPageToken)
    }

    func listChanges(_ request: Request) throws -> Response {
        let query = DriveQueryParameters(request)
        guard let tokenText = query["pageToken"] else { throw DriveFailure(.requiredParameter("pageToken")) }
        guard let token = Int64(tokenText), token >= 1 else { throw DriveFailure(.invalidParameter("pageToken")) }
        let pageSize = try query.pageSize(default: 100, maximum: options.maximumPageSize)
        let includeRemoved = try query.bool("includeRemoved", default: true)
        _ = try query.bool("restrictToMyDrive", default: false)
        _ = try query.bool("includeCorpusRemovals", default: false)
        _ = try query.bool("includeItemsFromAllDrives", default: false)
        var spaces: Set<DriveSpace> = []
        for name in (query["spaces"] ?? "drive").split(separator: ",") {
            switch name.trimmingCharacters(in: .whitespaces) {
            case "drive": spaces.insert(.drive)
            case "appDataFolder": spaces.insert(.appDataFolder)
            case "photos": break
            default: throw DriveFailure(.invalidParameter("spaces"))
            }
        }
        // A bad `fields` is refused by `answer` below, after the checks that come first.
        let mask = (try? query.mask(schema: .changeList, default: DefaultFields.changeList)) ?? .all
        let fileFields = DriveNode.nestedFields(DriveNode.nestedFields(mask, "changes"), "file")
        let list: [String: Any] = try store.withState { state throws(DriveFailure) in
            guard token <= state.nextSequence else { throw DriveFailure(.invalidParameter("pageToken")) }
            let (page, nextToken) = state.changePage(
                from: token, pageSize: pageSize, spaces: spaces, includeRemoved: includeRemoved)
            let changes: [[String: Any]] = page.map { record in
                var change: [String: Any] = [
                    "kind": "drive#change", "type": "file", "changeType": "file", "fileId": record.fileID,
                    "time": DriveTime.format(record.time),
                ]
                if let node = state.nodes[record.fileID] {
                    change["removed"] = false
                    change["file"] = state.resource(node, fields: fileFields)
                } else {
                    change["removed"] = true
                }
                return change
            }
            var list: [String: Any] = ["kind": "drive#changeList", "changes": changes]
            if let nextToken {
                list["nextPageToken"] = String(nextToken)
            } else {
                list["newStartPageToken"] = String(state.nextSequence)
            }
            return list
        }
        return try answer(list, query: query, schema: .changeList, defaultFields: DefaultFields.changeList)
    }
}
