import Foundation
import Hummingbird

/// What the Graph routes read from a request: its query, its conditions, the base URL it was
/// sent to.
struct GraphRequest {
    /// The query parameters, decoded (the last of a repeated name wins).
    var query: [String: String]
    /// `scheme://host:port` as the client reached the mock.
    var baseURL: String
    /// The request's path, percent-encoded as sent.
    var path: String
    /// `If-Match` / `If-None-Match`.
    var condition: WriteCondition

    init(_ request: Request, scheme: String) {
        var query: [String: String] = [:]
        for item in URLComponents(string: request.uri.description)?.queryItems ?? [] {
            query[item.name] = item.value ?? ""
        }
        self.query = query
        self.baseURL = "\(scheme)://\(request.head.authority ?? "127.0.0.1")"
        self.path = request.uri.path
        self.condition = WriteCondition(
            ifMatch: request.headers[.ifMatch], ifNoneMatch: request.headers[.ifNoneMatch])
    }

    /// `$top` within 1...maximum, or the default.
    func pageSize(default defaultSize: Int, maximum: Int) throws(GraphFailure) -> Int {
        guard let text = query["$top"] else { return min(defaultSize, maximum) }
        guard let top = Int(text), top > 0 else { throw .invalidRequest("$top must be a positive number.") }
        return min(top, maximum)
    }

    /// `@microsoft.graph.conflictBehavior` from the query or a body, or a default.
    func conflictBehavior(body: [String: Any] = [:], default fallback: ConflictBehavior) throws(GraphFailure)
        -> ConflictBehavior
    {
        let key = "@microsoft.graph.conflictBehavior"
        let item = body["item"] as? [String: Any]
        guard let text = (item?[key] as? String) ?? (body[key] as? String) ?? query[key] else { return fallback }
        guard let behavior = ConflictBehavior(rawValue: text.lowercased()) else {
            throw .invalidRequest("Invalid value for @microsoft.graph.conflictBehavior: \(text)")
        }
        return behavior
    }

    /// The request's own URL without its query and with a `delta(...)` call reduced to
    /// `delta`, for links back to it.
    var linkBase: String {
        var path = self.path
        if let range = path.range(of: "/delta(") ?? path.range(of: "/delta%28") {
            path = String(path[..<range.lowerBound]) + "/delta"
        }
        return baseURL + path
    }
}
