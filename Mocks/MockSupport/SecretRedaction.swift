import Foundation
import StratusHTTP

/// The rules that keep secrets (tokens, client secrets, authorization codes, PKCE verifiers,
/// passwords) out of a mock's request log: the library's one list, StratusHTTP's
/// ``/StratusHTTP/Redaction``, applied to the shapes a request log holds.
public enum SecretRedaction {
    /// What a secret is replaced with.
    public static let placeholder = Redaction.placeholder

    /// Whether a form field, query parameter or JSON key holds a secret
    /// (``/StratusHTTP/Redaction/isSecretParameter(_:)``).
    /// - Parameter name: The name, in any case.
    public static func isSecret(name: String) -> Bool {
        Redaction.isSecretParameter(name)
    }

    /// Fields with every secret value replaced by ``placeholder``.
    /// - Parameter fields: Form fields or query parameters.
    public static func redact(_ fields: FormFields) -> FormFields {
        FormFields(
            fields.map { field in
                isSecret(name: field.name) ? NamedValue(field.name, placeholder) : field
            })
    }

    /// A header value as it may be logged. Authorization-like headers keep only their scheme
    /// (`Bearer <redacted>`); other secret headers become ``placeholder``; JSON argument headers
    /// (`Dropbox-API-Arg`) have their secret keys redacted.
    /// - Parameters:
    ///   - value: The header's value.
    ///   - name: The header's name, in any case.
    public static func headerValue(_ value: String, named name: String) -> String {
        let shown = Redaction.headerValue(value, named: name)
        if shown == value, name.lowercased().hasSuffix("-api-arg") {
            return json(value)
        }
        return shown
    }

    /// JSON text with the values of secret keys, at any depth, replaced by ``placeholder``,
    /// written back with sorted keys. Text that is not JSON is described by its length only,
    /// since it could be anything.
    /// - Parameter text: The JSON text.
    public static func json(_ text: String) -> String {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else {
            return "<\(text.utf8.count) bytes, not JSON>"
        }
        // SortedJSONText writes what JSONSerialization writes with these options, at a fraction
        // of the cost (this ran on every Dropbox request: 15% of the mock's CPU, profiled).
        return SortedJSONText.make(redactJSONValue(object)) ?? "<\(text.utf8.count) bytes of JSON>"
    }

    private static func redactJSONValue(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var redacted: [String: Any] = [:]
            for (key, member) in object {
                redacted[key] = isSecret(name: key) ? placeholder : redactJSONValue(member)
            }
            return redacted
        }
        if let array = value as? [Any] {
            return array.map(redactJSONValue)
        }
        return value
    }
}
