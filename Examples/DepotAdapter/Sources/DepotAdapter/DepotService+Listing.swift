import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

extension DepotService {
    /// Lists every file below a folder with `GET /list`, a page at a time; each page is one
    /// request in the retry loop, sent once more should its answer be unreadable.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await ServiceError.guarding(Self.name) {
            try capabilities.pathRules.validate(folder)
            var files: [RemoteFile] = []
            var cursor: String?
            repeat {
                var query = [
                    (name: "prefix", value: folder.string), (name: "limit", value: String(configuration.listPageSize)),
                ]
                if let cursor { query.append((name: "cursor", value: cursor)) }
                let request = makeRequest(.get, endpoint("list", query: query))
                let action = "listing of \(folder.isRoot ? "the root" : folder.string)"
                let page = try await configuration.retryPolicy.run(
                    .safe,
                    send: { _ in try await self.send(request, action: action) },
                    read: { response in try self.decodeListPage(response, action: action) }
                )
                files += try page.files.map { try $0.remoteFile() }
                cursor = page.cursor
            } while cursor != nil
            return files
        }
    }

    private func decodeListPage(_ response: StratusHTTPResponse, action: String) throws -> ListPage {
        guard response.isSuccess else { throw failure(response, action: action) }
        do {
            return try JSONDecoder().decode(ListPage.self, from: response.body)
        } catch {
            throw ServiceError(
                .invalidResponse, "Depot answered the \(action) with JSON that is not a page of files: \(error)")
        }
    }

    /// The current end of Depot's change log (`GET /changes/latest`).
    public func latestChangeToken() async throws -> ChangeToken {
        try await ServiceError.guarding(Self.name) {
            let request = makeRequest(.get, endpoint("changes/latest"))
            let latest = try await configuration.retryPolicy.run(.safe) { _ in
                try await self.sendJSON(request, as: LatestCursor.self, action: "request for the latest change cursor")
            }
            return ChangeToken(rawValue: latest.cursor)
        }
    }

    /// A page of Depot's change log after a token (`GET /changes`): the token is the server's
    /// cursor as it is, which the server refuses (`invalid_cursor`) when it never issued it.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await ServiceError.guarding(Self.name) {
            let query = [
                (name: "cursor", value: token.rawValue), (name: "limit", value: String(configuration.changePageSize)),
            ]
            let request = makeRequest(.get, endpoint("changes", query: query))
            let page = try await configuration.retryPolicy.run(.safe) { _ in
                try await self.sendJSON(request, as: ChangeLogPage.self, action: "request for changes")
            }
            let changes = try page.changes.map { entry -> Change in
                switch (entry.op, entry.file, entry.path) {
                case ("put", let file?, _):
                    return .upserted(try file.remoteFile())
                case ("delete", _, let path?):
                    do {
                        return .deleted(try RemotePath(path))
                    } catch {
                        throw ServiceError(.invalidResponse, "Depot's change log names a deletion at an invalid path.")
                    }
                default:
                    throw ServiceError(
                        .invalidResponse, "Depot's change log has an entry of unknown kind '\(entry.op)'.")
                }
            }
            return ChangePage(changes: changes, nextToken: ChangeToken(rawValue: page.cursor), hasMore: page.more)
        }
    }

    private struct ListPage: Decodable, Sendable {
        var files: [DepotFileDescription]
        var cursor: String?
    }

    private struct LatestCursor: Decodable, Sendable {
        var cursor: String
    }

    private struct ChangeLogPage: Decodable, Sendable {
        struct Entry: Decodable, Sendable {
            var op: String
            var file: DepotFileDescription?
            var path: String?
        }

        var changes: [Entry]
        var cursor: String
        var more: Bool
    }
}
