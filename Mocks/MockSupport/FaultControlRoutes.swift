import Foundation
import Hummingbird

/// The control routes every mock serves beside its provider's routes, so that testers in any
/// language can script faults and read what the mock saw:
///
/// | Route | Does |
/// |---|---|
/// | `GET /__stratus/faults` | `{"faults": [{"id", "rule", "matched", "injected"}]}` |
/// | `POST /__stratus/faults` | adds the ``FaultRule`` in the JSON body; 201 `{"id": "fault-1"}` |
/// | `DELETE /__stratus/faults` | removes every rule; 204 |
/// | `DELETE /__stratus/faults/{id}` | removes one rule; 204, or 404 |
/// | `POST /__stratus/reset` | removes every rule and clears the request log; 204 |
/// | `GET /__stratus/requests` | `{"requests": [...]}`, the request log, secrets redacted |
///
/// The control routes are never faulted and are not logged. Bad input gets a 400 whose JSON
/// body says what was wrong: `{"error": "..."}`.
///
/// A mock runs on a developer's machine, where any web page could otherwise drive it, so every
/// control request must:
/// - carry `Authorization: Bearer <token>` with the injector's ``FaultInjector/controlToken``
///   (`stratus-mock` prints it as `control token:`) or a valid access token of the mock; else 401;
/// - name a loopback or literal address in `Host` (`localhost`, `127.0.0.1`, `[::1]`, any IP
///   address, with or without a port), so a DNS-rebound name never reaches it; else 403;
/// - send a `POST` body as `Content-Type: application/json`, which a page cannot send to
///   another origin without asking first; else 415 (a `POST` with neither a body nor a
///   content type, such as a reset, is taken: the `Authorization` header already makes a
///   browser ask first).
public enum FaultControlRoutes {
    /// The path prefix of the control routes.
    public static let prefix = "/__stratus/"

    /// Mounts the control routes.
    /// - Parameters:
    ///   - router: The mock's router.
    ///   - injector: The rules to control.
    ///   - requestLog: The log to show and clear.
    public static func add(to router: Router<BasicRequestContext>, injector: FaultInjector, requestLog: RequestLog) {
        router.get("/__stratus/faults") { request, _ in
            if let refusal = refusal(of: request, injector: injector) { return refusal }
            return Response.json(["faults": injector.rules])
        }
        router.post("/__stratus/faults") { request, _ in
            if let refusal = refusal(of: request, injector: injector) { return refusal }
            var request = request
            let body = try await request.readBody(limit: 64 * 1024)
            let rule: FaultRule
            do {
                rule = try JSONDecoder().decode(FaultRule.self, from: Data(body.readableBytesView))
            } catch {
                return failure("The body is not a fault rule: \(describe(error))")
            }
            return Response.json(["id": injector.add(rule)], status: .created)
        }
        router.delete("/__stratus/faults") { request, _ in
            if let refusal = refusal(of: request, injector: injector) { return refusal }
            injector.removeAll()
            return Response(status: .noContent)
        }
        router.delete("/__stratus/faults/{id}") { request, context in
            if let refusal = refusal(of: request, injector: injector) { return refusal }
            let id = context.parameters.get("id") ?? ""
            return injector.remove(id: id)
                ? Response(status: .noContent) : failure("No fault rule has the id '\(id)'.", status: .notFound)
        }
        router.post("/__stratus/reset") { request, _ in
            if let refusal = refusal(of: request, injector: injector) { return refusal }
            injector.removeAll()
            requestLog.clear()
            return Response(status: .noContent)
        }
        router.get("/__stratus/requests") { request, _ in
            if let refusal = refusal(of: request, injector: injector) { return refusal }
            return Response.json(["requests": requestLog.entries])
        }
    }

    /// The answer that refuses a control request, or `nil` when it may proceed (see the type's
    /// documentation for the rules).
    static func refusal(of request: Request, injector: FaultInjector) -> Response? {
        guard let authority = request.head.authority, isLocalAuthority(authority) else {
            return failure(
                "The control routes answer only for a loopback or literal address in Host.", status: .forbidden)
        }
        let authorization = request.headers[.authorization] ?? ""
        let prefix = "bearer "
        let token = authorization.lowercased().hasPrefix(prefix) ? String(authorization.dropFirst(prefix.count)) : ""
        guard !token.isEmpty, token == injector.controlToken || injector.hooks.isValidAccessToken(token) else {
            var response = failure(
                "The control routes need Authorization: Bearer with the mock's control token (or a valid access token).",
                status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        // A POST with nothing in it and no content type (a reset) is taken: the Authorization
        // header already makes a browser ask first before it sends one from another origin.
        let isEmpty = request.headers[.contentLength].map { $0 == "0" } ?? (request.headers[.transferEncoding] == nil)
        if request.method == .post, !(isEmpty && request.headers[.contentType] == nil) {
            let mediaType = (request.headers[.contentType] ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard mediaType == "application/json" else {
                return failure(
                    "The control routes take only Content-Type: application/json.", status: .unsupportedMediaType)
            }
        }
        return nil
    }

    /// Whether a `Host` value names `localhost` or an IP address literal, with or without a port.
    package static func isLocalAuthority(_ authority: String) -> Bool {
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[authority.index(after: authority.startIndex)..<close]
            return host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if host.lowercased() == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    private static func failure(_ message: String, status: HTTPResponse.Status = .badRequest) -> Response {
        Response.json(["error": message], status: status)
    }

    /// A decoding error in one sentence, naming the field at fault.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _):
            return "the field '\(key.stringValue)' is missing"
        default:
            return "it is not valid JSON"
        }
    }
}
