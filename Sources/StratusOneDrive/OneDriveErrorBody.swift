import Foundation

/// Graph's error body, `{"error": {"code": ..., "message": ..., "innererror": {"code": ...,
/// "innererror": {...}}}}`, read as the chain of codes from the outermost in.
struct OneDriveErrorBody: Sendable, Equatable {
    /// The codes, outermost first (such as `["invalidRequest", "resyncRequired"]`).
    var codes: [String]
    /// The outermost message, if any.
    var message: String?

    /// How deep the `innererror` chain is followed; a longer chain is cut there.
    static let deepestInnerError = 16

    /// Whether any code of the chain is one of `names` (compared case-insensitively: Graph
    /// spells some codes in more than one case).
    func has(_ names: String...) -> Bool {
        let lowered = Set(names.map { $0.lowercased() })
        return codes.contains { lowered.contains($0.lowercased()) }
    }

    /// `code/innercode: message`, for messages.
    var summary: String {
        let chain = codes.joined(separator: "/")
        guard let message, !message.isEmpty else { return chain }
        return chain.isEmpty ? message : "\(chain): \(message)"
    }

    /// Reads an error body; `nil` when it is not Graph's error JSON.
    static func parse(_ body: Data) -> OneDriveErrorBody? {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            var level = object["error"] as? [String: Any]
        else { return nil }
        var codes: [String] = []
        let message = level["message"] as? String
        for _ in 0..<deepestInnerError {
            if let code = level["code"] as? String, !code.isEmpty { codes.append(code) }
            guard let inner = level["innererror"] as? [String: Any] else { break }
            level = inner
        }
        guard !codes.isEmpty || message != nil else { return nil }
        return OneDriveErrorBody(codes: codes, message: message)
    }
}
