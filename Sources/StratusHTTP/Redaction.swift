public import Foundation

/// The rules that keep secrets out of descriptions, logs and errors: the one list of secret
/// header, parameter and field names in Stratus, used by the HTTP client's descriptions, the
/// adapters' error messages and the mock servers' request logs alike.
public enum Redaction {
    /// What a secret is replaced with.
    public static let placeholder = "<redacted>"

    /// Header names (lowercase) whose values are always secret; beyond these, any header whose
    /// name holds `token` or `secret` is too (see ``headerValue(_:named:)``).
    public static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
        "x-goog-api-key", "x-amz-security-token",
    ]

    /// Query parameter, form field and JSON key names (lowercase) whose values are always
    /// secret; beyond these, see ``isSecretParameter(_:)``.
    public static let secretParameters: Set<String> = [
        "access_token", "refresh_token", "oauth_token", "client_secret", "code", "code_verifier",
        "key", "token", "id_token", "password", "x-amz-signature", "x-amz-security-token",
        "assertion", "client_assertion",
    ]

    /// A header value as it may be shown: secret headers keep only their scheme
    /// (`Bearer <redacted>`).
    /// - Parameters:
    ///   - value: The header's value.
    ///   - name: The header's name, in any case.
    public static func headerValue(_ value: String, named name: String) -> String {
        let lowered = name.lowercased()
        guard secretHeaders.contains(lowered) || lowered.contains("token") || lowered.contains("secret") else {
            return value
        }
        if lowered.hasSuffix("authorization"), let space = value.firstIndex(of: " ") {
            return "\(value[..<space]) \(placeholder)"
        }
        return placeholder
    }

    /// A URL as it may be shown: user info and secret query parameters replaced.
    public static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return placeholder
        }
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
        }
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                isSecretParameter(item.name) ? URLQueryItem(name: item.name, value: placeholder) : item
            }
        }
        return components.string ?? placeholder
    }

    /// Whether a query parameter, form field or JSON key holds a secret: one of
    /// ``secretParameters``, or a name that holds `secret` or `password` or ends in `_token` or
    /// `verifier` (in any case).
    /// - Parameter name: The name.
    public static func isSecretParameter(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretParameters.contains(lowered) || lowered.contains("secret") || lowered.contains("password")
            || lowered.hasSuffix("_token") || lowered.hasSuffix("verifier")
    }

    /// Text a server chose (an error message, an error body) as it may reach a message, a log
    /// or ``/Stratus``'s `providerError`: the one scrubbing step for all such text. Control
    /// characters (terminal escapes, line breaks) and bidirectional overrides are removed first,
    /// so a secret split by them is still found; then every known secret and anything after
    /// `Bearer ` are replaced by ``placeholder``; then the text is cut to `limit` characters.
    /// - Parameters:
    ///   - text: What the server sent.
    ///   - secrets: The values that must never show (current tokens, client secret, keys);
    ///     values shorter than 4 characters are left alone, as replacing them would garble the text.
    ///   - limit: The most characters kept; a cut text ends with `…`.
    /// - Returns: The text, safe to show.
    public static func serverText(_ text: String, secrets: [String], limit: Int = 300) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                // Line breaks and tabs become spaces, so words stay apart.
                if scalar == "\n" || scalar == "\r" || scalar == "\t" { scalars.append(" ") }
            } else if !(0x202A...0x202E).contains(scalar.value), !(0x2066...0x2069).contains(scalar.value) {
                scalars.append(scalar)
            }
        }
        var cleaned = String(scalars)
        for secret in secrets where secret.count >= 4 {
            cleaned = cleaned.replacingOccurrences(of: secret, with: placeholder)
        }
        cleaned = redactingBearerValues(cleaned)
        guard limit >= 0, cleaned.count > limit else { return cleaned }
        return String(cleaned.prefix(limit)) + "…"
    }

    /// Replaces the word after every `Bearer ` (any case), a token an echoed header carried.
    private static func redactingBearerValues(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let match = rest.range(of: "bearer ", options: .caseInsensitive) {
            result += rest[..<match.upperBound]
            rest = rest[match.upperBound...]
            let word = rest.prefix { !$0.isWhitespace && $0 != "\"" && $0 != "," && $0 != "<" }
            if !word.isEmpty {
                result += placeholder
                rest = rest.dropFirst(word.count)
            }
        }
        return result + rest
    }
}
