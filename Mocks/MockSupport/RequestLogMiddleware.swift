import Hummingbird

/// Hummingbird middleware that records every request it sees but the control routes
/// (`/__stratus/...`), and the status of the answer, into a ``RequestLog``, with secrets
/// redacted (see ``SecretRedaction``).
///
/// ```swift
/// let log = RequestLog()
/// router.add(middleware: RequestLogMiddleware(log: log))
/// ```
///
/// The call's arguments are taken from a `Dropbox-API-Arg` header or `arg` query parameter
/// (JSON), or from a form or JSON body no longer than ``argumentLimit`` that announces its
/// `Content-Length`; such a body is read here and handed on to the route unchanged. Other
/// bodies (file uploads, streamed bodies) are never read by the log.
public struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The headers recorded when no other list is given (lowercase names).
    public static var defaultRecordedHeaders: Set<String> {
        [
            "authorization", "content-type", "content-length", "content-range", "range",
            "if-match", "if-none-match", "dropbox-api-arg", "dropbox-api-path-root",
            "x-upload-content-type", "x-upload-content-length",
        ]
    }

    /// Where entries go.
    public let log: RequestLog
    /// The lowercase names of the headers recorded.
    public let recordedHeaders: Set<String>
    /// The largest form or JSON body read for ``RecordedRequest/arguments``.
    public let argumentLimit: Int

    /// Creates the middleware.
    /// - Parameters:
    ///   - log: Where entries go.
    ///   - recordedHeaders: The headers to record, by name in any case.
    ///   - argumentLimit: The largest form or JSON body read for the arguments.
    public init(
        log: RequestLog,
        recordedHeaders: Set<String> = Self.defaultRecordedHeaders,
        argumentLimit: Int = 64 * 1024
    ) {
        self.log = log
        self.recordedHeaders = Set(recordedHeaders.map { $0.lowercased() })
        self.argumentLimit = argumentLimit
    }

    /// Records the request and the status of its answer, then returns the answer.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !request.uri.path.hasPrefix(FaultControlRoutes.prefix) else {
            return try await next(request, context)
        }
        var request = request
        var entry = RecordedRequest(
            method: request.method.rawValue,
            path: request.uri.path,
            query: redactedQuery(request.uri.query),
            headers: redactedHeaders(request.headers),
            status: 0
        )
        do {
            entry.arguments = try await arguments(of: &request, query: entry.query, headers: entry.headers)
            let response = try await next(request, context)
            entry.status = response.status.code
            log.append(entry)
            return response
        } catch {
            entry.status = (error as? any HTTPResponseError)?.status.code ?? 500
            log.append(entry)
            throw error
        }
    }

    private func redactedQuery(_ query: String?) -> [NamedValue] {
        guard let query, !query.isEmpty else { return [] }
        guard let fields = try? FormFields(parsing: query) else {
            return [NamedValue("<malformed query>", "")]
        }
        return SecretRedaction.redact(fields).fields
    }

    private func redactedHeaders(_ headers: HTTPFields) -> [NamedValue] {
        headers.compactMap { field in
            let name = field.name.canonicalName
            guard recordedHeaders.contains(name) else { return nil }
            return NamedValue(field.name.rawName, SecretRedaction.headerValue(field.value, named: name))
        }
    }

    private func arguments(of request: inout Request, query: [NamedValue], headers: [NamedValue]) async throws
        -> String?
    {
        if let header = request.headers.first(where: { $0.name.canonicalName == "dropbox-api-arg" }) {
            // The recorded header is the same text redacted the same way: reuse it rather than
            // parse and write the JSON twice per request (a fifth of the mock's CPU on small
            // uploads, profiled).
            if let recorded = headers.first(where: { $0.name.lowercased() == "dropbox-api-arg" }) {
                return recorded.value
            }
            return SecretRedaction.json(header.value)
        }
        if let rawQuery = request.uri.query, let argument = (try? FormFields(parsing: rawQuery))?["arg"] {
            return SecretRedaction.json(argument)
        }
        let mediaType = request.mediaType
        guard mediaType == "application/x-www-form-urlencoded" || mediaType == "application/json",
            let length = request.headers[.contentLength].flatMap({ Int($0) }),
            length <= argumentLimit
        else {
            return nil
        }
        let body = try await request.collectBody(upTo: argumentLimit)
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        if mediaType == "application/json" {
            return text.isEmpty ? nil : SecretRedaction.json(text)
        }
        guard let fields = try? FormFields(parsing: text) else {
            return "<\(body.readableBytes) bytes, not a form>"
        }
        return SecretRedaction.redact(fields).fields.map(\.description).joined(separator: "&")
    }
}
