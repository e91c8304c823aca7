import Foundation
import HTTPTypes
import Hummingbird
import MockOAuth
import MockSupport
import NIOCore

/// Reading a call's arguments and checking its bearer token, as every route does.
extension MockDropboxServer {
    /// The JSON arguments of an RPC call, from its body.
    func rpcArguments(_ request: inout Request, route: String) async throws -> DropboxArguments {
        guard request.mediaType == "application/json" else {
            let type = request.headers[.contentType] ?? ""
            throw DropboxFailure.badInput(
                "Error in call to API function \"\(route)\": Bad HTTP \"Content-Type\" header: \"\(type)\".  Expecting one of \"application/json\", \"application/json; charset=utf-8\", \"text/plain; charset=dropbox-cors-hack\"."
            )
        }
        let body: ByteBuffer
        do {
            body = try await request.readBody(limit: 1 << 20)
        } catch {
            throw DropboxFailure.badInput("Error in call to API function \"\(route)\": request body is too large")
        }
        let data = Data(body.readableBytesView)
        return try DropboxArguments(json: data, route: route, source: "request body")
    }

    /// The JSON arguments of an upload or download call, from `Dropbox-API-Arg` or the
    /// `arg` query parameter.
    func headerArguments(_ request: Request, route: String) throws -> DropboxArguments {
        if let name = HTTPField.Name("Dropbox-API-Arg"), let header = request.headers[name] {
            guard header.utf8.allSatisfy({ $0 < 0x7F }) else {
                throw DropboxFailure.badInput(
                    "Error in call to API function \"\(route)\": HTTP header \"Dropbox-API-Arg\": could not decode input as JSON"
                )
            }
            return try DropboxArguments(
                json: Data(header.utf8), route: route, source: "HTTP header \"Dropbox-API-Arg\"")
        }
        if let query = request.uri.query, let fields = try? FormFields(parsing: query), let arg = fields["arg"] {
            return try DropboxArguments(json: Data(arg.utf8), route: route, source: "URL parameter \"arg\"")
        }
        throw DropboxFailure.badInput(
            "Error in call to API function \"\(route)\": Must provide HTTP header \"Dropbox-API-Arg\" or URL parameter \"arg\"."
        )
    }

    /// Checks the bearer token against the authorization server and the route's scope.
    /// - Throws: ``DropboxFailure`` with a 401 `AuthError`.
    func authorize(_ request: Request, scope: String) throws {
        let header = request.headers[.authorization] ?? ""
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw DropboxFailure.unauthorized([".tag": "invalid_access_token"])
        }
        switch authorization.validate(accessToken: String(parts[1]).trimmingCharacters(in: .whitespaces)) {
        case .valid(let scopes):
            guard scopes.contains(scope) else {
                throw DropboxFailure.unauthorized([".tag": "missing_scope", "required_scope": scope])
            }
        case .expired:
            throw DropboxFailure.unauthorized([".tag": "expired_access_token"])
        case .invalid:
            throw DropboxFailure.unauthorized([".tag": "invalid_access_token"])
        }
    }

    /// Parses a path argument, answering 400 for a pattern mismatch (and for `"/"` where the
    /// root is `""`) and throwing `malformed_path` as a ``LookupProblem`` otherwise.
    func parsePath(_ raw: String, allowRoot: Bool, arguments: DropboxArguments, field: String = "path") throws
        -> DropboxPath
    {
        do {
            return try DropboxPath(parsing: raw, allowRoot: allowRoot)
        } catch .pattern {
            if raw.isEmpty && !allowRoot {
                throw arguments.fail(field, "The root folder is unsupported.")
            }
            throw arguments.fail(
                field, "'\(raw)' did not match pattern '(/(.|[\\r\\n])*)|(ns:[0-9]+(/(.|[\\r\\n])*)?)'")
        } catch .slashRoot {
            throw arguments.fail(field, "Specify the root folder as an empty string rather than as \"/\".")
        } catch .malformed {
            throw LookupProblem.malformedPath
        }
    }

    /// Resolves a path, `id:` or `rev:` argument to a live node.
    /// - Parameter errorTag: The route error member wrapping `LookupError` (`path`, `path_lookup`).
    /// - Throws: 400 for a pattern mismatch, 409 `<errorTag>/<LookupError>` otherwise.
    func lookup(_ raw: String, arguments: DropboxArguments, errorTag: String) throws -> (
        node: NamespaceNode, revision: FileRevision?
    ) {
        do {
            if !raw.hasPrefix("id:"), !raw.hasPrefix("rev:") {
                _ = try parsePath(raw, allowRoot: false, arguments: arguments)
            }
            return try namespace.withState { try $0.lookup(raw) }
        } catch let problem as LookupProblem {
            throw DropboxFailure.route(FilesError.wrap(errorTag, problem.union))
        }
    }

    /// Runs a route body, turning ``DropboxFailure`` into its answer.
    static func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let failure as DropboxFailure {
            return failure.response
        }
    }
}
