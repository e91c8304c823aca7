import Foundation

/// The rules that keep secrets out of descriptions, logs and errors.
public enum Redaction {
    /// What a secret is replaced with.
    public static let placeholder = "<redacted>"

    /// Header names whose values are always secret.
    static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
        "x-goog-api-key", "x-amz-security-token",
    ]

    /// Query parameters (and form fields) whose values are always secret.
    static let secretParameters: Set<String> = [
        "access_token", "refresh_token", "oauth_token", "client_secret", "code", "code_verifier",
        "key", "token", "id_token", "password", "x-amz-signature", "x-amz-security-token",
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

    /// Whether a query parameter or form field holds a secret.
    public static func isSecretParameter(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretParameters.contains(lowered) || lowered.contains("secret") || lowered.hasSuffix("_token")
    }
}
