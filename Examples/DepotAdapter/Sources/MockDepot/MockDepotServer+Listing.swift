import Foundation
import Hummingbird
import MockSupport

extension MockDepotServer {
    /// The most entries a page of `/list` or `/changes` holds, and the default.
    static let pageLimit = 1000

    /// `GET /list?prefix=&limit=&cursor=`: a page of the files below a folder; the cursor is the
    /// last path of the page before.
    func list(_ request: Request) throws -> Response {
        let query = try Self.query(of: request)
        let folder = try DepotPath(plain: query["prefix"] ?? "")
        let limit = try Self.limit(query)
        // The cursor is the last path of the page before (opaque to clients).
        let after = try query["cursor"].map { cursor throws(DepotFailure) in try DepotPath(plain: cursor) }
        let (files, more) = try store.list(folder, after: after, limit: limit)
        let cursor = more ? files.last?.path.text : nil
        return Response.json(ListPage(files: files.map(\.json), cursor: cursor))
    }

    /// `GET /changes?cursor=&limit=`: the changes after a cursor, oldest first.
    func changes(_ request: Request) throws -> Response {
        let query = try Self.query(of: request)
        guard let text = query["cursor"], let cursor = Int(text), text == String(cursor) else {
            throw DepotFailure.badRequest(
                "The cursor \(query["cursor"] ?? "(none)") was never issued.", code: "invalid_cursor")
        }
        let page = try store.changes(after: cursor, limit: try Self.limit(query))
        let changes = page.changes.map { change in
            switch change {
            case .put(let file): ChangeEntry(op: "put", file: file.json, path: nil)
            case .delete(let path): ChangeEntry(op: "delete", file: nil, path: path.text)
            }
        }
        return Response.json(ChangePage(changes: changes, cursor: String(page.cursor), more: page.more))
    }

    private static func query(of request: Request) throws(DepotFailure) -> FormFields {
        do {
            return try FormFields(parsing: request.uri.query ?? "")
        } catch {
            throw .badRequest("The query is malformed: \(error)")
        }
    }

    private static func limit(_ query: FormFields) throws(DepotFailure) -> Int {
        guard let text = query["limit"] else { return pageLimit }
        guard let limit = Int(text), (1...pageLimit).contains(limit) else {
            throw .badRequest("limit must be 1...\(pageLimit).")
        }
        return limit
    }

    private struct ListPage: Encodable {
        var files: [DepotFile.JSON]
        var cursor: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(files, forKey: .files)
            try container.encode(cursor, forKey: .cursor)
        }

        private enum CodingKeys: String, CodingKey { case files, cursor }
    }

    private struct ChangeEntry: Encodable {
        var op: String
        var file: DepotFile.JSON?
        var path: String?
    }

    private struct ChangePage: Encodable {
        var changes: [ChangeEntry]
        var cursor: String
        var more: Bool
    }
}
