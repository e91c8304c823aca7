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
/// The control routes need no token, are never faulted and are not logged. Bad input gets a
/// 400 whose JSON body says what was wrong: `{"error": "..."}`.
public enum FaultControlRoutes {
    /// The path prefix of the control routes.
    public static let prefix = "/__stratus/"

    /// Mounts the control routes.
    /// - Parameters:
    ///   - router: The mock's router.
    ///   - injector: The rules to control.
    ///   - requestLog: The log to show and clear.
    public static func add(to router: Router<BasicRequestContext>, injector: FaultInjector, requestLog: RequestLog) {
        router.get("/__stratus/faults") { _, _ in
            Response.json(["faults": injector.rules])
        }
        router.post("/__stratus/faults") { request, _ in
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
        router.delete("/__stratus/faults") { _, _ in
            injector.removeAll()
            return Response(status: .noContent)
        }
        router.delete("/__stratus/faults/{id}") { _, context in
            let id = context.parameters.get("id") ?? ""
            return injector.remove(id: id) ? Response(status: .noContent) : failure("No fault rule has the id '\(id)'.", status: .notFound)
        }
        router.post("/__stratus/reset") { _, _ in
            injector.removeAll()
            requestLog.clear()
            return Response(status: .noContent)
        }
        router.get("/__stratus/requests") { _, _ in
            Response.json(["requests": requestLog.entries])
        }
    }

    private static func failure(_ message: String, status: HTTPResponse.Status = .badRequest) -> Response {
        Response.json(["error": message], status: status)
    }

    /// A decoding error in one sentence, naming the field at fault.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _):
            return "the field '\(key.stringValue)' is missing"
        default:
            return "it is not valid JSON"
        }
    }
}
