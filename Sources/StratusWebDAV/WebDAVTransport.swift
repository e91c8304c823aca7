import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Builds and sends WebDAV requests with Basic authentication, the retry loop and error mapping.
struct WebDAVTransport: Sendable {
    let http: StratusHTTPClient
    let configuration: WebDAVConfiguration

    static let propfind = StratusHTTPMethod(rawValue: "PROPFIND")
    static let proppatch = StratusHTTPMethod(rawValue: "PROPPATCH")
    static let mkcol = StratusHTTPMethod(rawValue: "MKCOL")
    static let lock = StratusHTTPMethod(rawValue: "LOCK")
    static let unlock = StratusHTTPMethod(rawValue: "UNLOCK")
    static let move = StratusHTTPMethod(rawValue: "MOVE")

    /// The secrets server text never shows.
    var secrets: [String] { configuration.credentials.secrets }

    /// The URL of a path below the root; a folder's ends in `/`.
    func url(for components: [String], isFolder: Bool = false) throws -> URL {
        try Self.url(base: configuration.url.absoluteString, components: components, isFolder: isFolder)
    }

    /// The URL of path components below a base URL that ends in `/`.
    ///
    /// A component that is empty, `.` or `..` is refused: a ``/Stratus/RemotePath`` holds none,
    /// so one can only come from a server's answer (a name in a listing), and libcurl folds dot
    /// segments, so `<folder>/..` would name the folder's parent (a DELETE of it would delete
    /// everything beside the folder).
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` for such a component;
    ///   ``/Stratus/ServiceError/Code/invalidPath`` when no URL can be made.
    static func url(base: String, components: [String], isFolder: Bool) throws -> URL {
        if let bad = components.first(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            throw ServiceError(
                .invalidResponse,
                "The WebDAV server named a resource \(bad.debugDescription), which is no name (a dot segment or nothing) and would address another resource; no request was sent for it."
            )
        }
        var text = base
        text += components.map(encode).joined(separator: "/")
        if isFolder, !components.isEmpty { text += "/" }
        guard let url = URL(string: text) else {
            throw ServiceError(.invalidPath, "The path \(components.joined(separator: "/")) cannot be made into a URL.")
        }
        return url
    }

    /// The URL of a resource named `name` in a folder whose URL ends in `/` (a chunk in an
    /// upload folder, a version in a versions folder), through ``url(base:components:isFolder:)``,
    /// so a name from a server that is a dot segment is refused.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` for an empty name, `.` or `..`.
    static func url(in folder: URL, named name: String) throws -> URL {
        var base = folder.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return try url(base: base, components: [name], isFolder: false)
    }

    /// One path segment with every byte outside `A-Z a-z 0-9 - . _ ~` percent-encoded (the
    /// one percent-encoder, StratusHTTP's).
    static func encode(_ component: String) -> String {
        PercentEncoding.encode(component)
    }

    /// Refuses a header value that holds a control character (U+0000 to U+001F or U+007F): a
    /// CR or LF would end the header or the request head early (a server's text, such as a lock
    /// token or an ETag, could add headers or a request of its own), and libcurl sends a bare
    /// CR or a NUL as it is. Every request is checked before it is sent (see
    /// ``exchange(_:action:destination:progress:)``); values taken from server text are checked
    /// where they arrive, too.
    /// - Parameters:
    ///   - value: The value.
    ///   - name: The header's name, for the message.
    ///   - action: What the request is for, for the message.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` naming the header and the
    ///   character (never the value, which may be a lock token).
    static func checkHeaderValue(_ value: String, name: String, action: String) throws {
        guard let bad = value.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return }
        throw ServiceError(
            .invalidResponse,
            "\(action): the value of the \(name) header, taken from the server's answers, holds the control character U+\(String(format: "%04X", bad.value)); it was not sent."
        )
    }

    /// A request with authentication.
    func request(
        _ method: StratusHTTPMethod, _ url: URL, headers: [(String, String)] = [], body: HTTPRequestBody = .empty,
        isIdempotent: Bool = true
    ) -> StratusHTTPRequest {
        var fields = StratusHTTPHeaders(headers)
        fields.set("Authorization", configuration.credentials.authorization)
        var request = StratusHTTPRequest(method: method, url: url, headers: fields, body: body)
        request.isIdempotent = isIdempotent
        return request
    }

    /// Sends a request once and returns its answer, whatever its status; transport failures
    /// become ``/Stratus/ServiceError``.
    func exchange(
        _ request: StratusHTTPRequest, action: String,
        destination: HTTPResponseDestination = .memory(limit: 16 * 1_048_576),
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws -> StratusHTTPResponse {
        try Task.checkCancellation()
        for field in request.headers {
            try Self.checkHeaderValue(field.value, name: field.name, action: action)
        }
        do {
            return try await http.execute(request, into: destination, progress: progress)
        } catch {
            throw ServiceError.transportFailure(error, action: action)
        }
    }

    /// Sends a request in the retry loop and returns its 2xx answer (a 207 of a method other
    /// than PROPFIND and PROPPATCH is a failure: Apache reports a refused write that way).
    func send(
        _ request: StratusHTTPRequest, action: String, repetition: Repetition,
        destination: HTTPResponseDestination = .memory(limit: 16 * 1_048_576),
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws -> StratusHTTPResponse {
        try await configuration.retryPolicy.run(repetition) { _ in
            let response = try await exchange(request, action: action, destination: destination, progress: progress)
            try check(response, method: request.method, action: action)
            return response
        }
    }

    /// Throws the error an answer stands for, if it is one.
    func check(_ response: StratusHTTPResponse, method: StratusHTTPMethod, action: String) throws {
        if response.status == 207, method != Self.propfind, method != Self.proppatch {
            throw WebDAVErrorMapping.multistatusFailure(response.body, action: action, secrets: secrets)
        }
        guard response.isSuccess else {
            throw WebDAVErrorMapping.error(
                status: response.status, headers: response.headers, body: response.body, action: action,
                secrets: secrets)
        }
    }

    /// PROPFIND of a URL at a depth (0 or 1, never infinity) for the properties the adapter reads,
    /// or for those another body (`properties`) asks for.
    /// - Returns: The entries, or `nil` when nothing is at the URL.
    func propfind(
        _ url: URL, depth: Int, properties: String = WebDAVProperties.propfindBody, action: String
    ) async throws -> [WebDAVEntry]? {
        let body = Data(properties.utf8)
        let built = request(
            Self.propfind, url,
            headers: [("Depth", String(depth)), ("Content-Type", "application/xml; charset=utf-8")], body: .bytes(body))
        do {
            // An answer damaged on the way is asked for once more (the one loop's rule for reads).
            return try await configuration.retryPolicy.run(
                .safe,
                send: { _ in
                    let response = try await exchange(built, action: action)
                    try check(response, method: built.method, action: action)
                    return response
                },
                read: { response in
                    guard response.status == 207 else {
                        throw WebDAVErrorMapping.undecodable(
                            action, "the answer is HTTP \(response.status), not a 207 multistatus")
                    }
                    return try WebDAVEntry.parse(response.body, action: action)
                })
        } catch let error as ServiceError
            where error.code == .notFound || error.httpStatus == 409 || (error.httpStatus == 400 && depth == 0)
        {
            // Apache answers 400, WsgiDAV 409, for a path below a file: nothing is there either.
            return nil
        }
    }
}
