import Foundation

/// Google's JSON error body:
/// `{"error": {"code": 404, "message": "...", "errors": [{"domain", "reason", "message", "location"}], "status": "NOT_FOUND"}}`.
struct DriveErrorBody: Decodable, Sendable, Equatable {
    struct Item: Decodable, Sendable, Equatable {
        var domain: String?
        var reason: String?
        var message: String?
        var location: String?
    }

    var code: Int?
    var message: String?
    var errors: [Item]
    var status: String?

    private struct Envelope: Decodable {
        struct Inner: Decodable {
            var code: Int?
            var message: String?
            var errors: [Item]?
            var status: String?
        }

        var error: Inner
    }

    /// Parses an error body; `nil` when it is not Google's error JSON.
    static func parse(_ data: Data) -> DriveErrorBody? {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: data) else { return nil }
        let inner = envelope.error
        return DriveErrorBody(
            code: inner.code, message: inner.message, errors: inner.errors ?? [], status: inner.status)
    }

    init(code: Int?, message: String?, errors: [Item], status: String?) {
        self.code = code
        self.message = message
        self.errors = errors
        self.status = status
    }

    /// The reasons of every error item, such as `["rateLimitExceeded"]`.
    var reasons: [String] { errors.compactMap(\.reason) }

    /// Whether any item has this reason.
    func has(_ reason: String) -> Bool { reasons.contains(reason) }

    /// What is kept as ``Stratus/ServiceError/providerError``: the reasons and Google's message,
    /// such as `notFound: File not found: 1a2b.`
    var summary: String {
        let text = message ?? errors.first?.message ?? status ?? ""
        let reasonText = reasons.joined(separator: ",")
        switch (reasonText.isEmpty, text.isEmpty) {
        case (true, _): return text
        case (false, true): return reasonText
        case (false, false): return "\(reasonText): \(text)"
        }
    }
}
