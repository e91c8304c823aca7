public import Foundation

/// A remote's options, as strings, with typed accessors whose errors name the remote, the option
/// and what a valid value looks like.
public struct RemoteOptions: Hashable, Sendable {
    /// The remote's name, such as `"saves"`, used in error messages.
    public var remoteName: String
    /// The backend type, such as `"local"`.
    public var typeName: String
    /// The raw values by option name.
    public var values: [String: String]

    /// Creates options.
    public init(remoteName: String, typeName: String, values: [String: String]) {
        self.remoteName = remoteName
        self.typeName = typeName
        self.values = values
    }

    /// An optional string option.
    public func string(_ name: String) -> String? {
        values[name]
    }

    /// A string option the remote must set.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when it is missing or empty.
    public func requiredString(_ name: String) throws -> String {
        guard let value = values[name], !value.isEmpty else {
            throw ServiceError(
                .invalidConfiguration,
                "Remote '\(remoteName)' (type \(typeName)) needs the option '\(name)'. Set it in the configuration file or as \(RemoteOptions.environmentName(remote: remoteName, option: name))."
            )
        }
        return value
    }

    /// An optional whole-number option.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when it is set but not a number.
    public func integer(_ name: String) throws -> Int64? {
        guard let value = values[name] else { return nil }
        guard let number = Int64(value.trimmingCharacters(in: .whitespaces)) else {
            throw invalid(name, value, expected: "a whole number")
        }
        return number
    }

    /// An optional yes/no option (`true`/`false`, `yes`/`no`, `1`/`0`).
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when it is set to anything else.
    public func boolean(_ name: String) throws -> Bool? {
        guard let value = values[name] else { return nil }
        switch value.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw invalid(name, value, expected: "true or false")
        }
    }

    /// An optional URL option with a scheme and host (such as a base URL).
    ///
    /// Tokens, client secrets and keys travel to these URLs, so the scheme must be `https`;
    /// `http` is accepted only for a loopback host (`localhost`, `127.0.0.0/8`, `::1`), where
    /// nothing leaves the machine, or when the remote sets ``allowInsecureHTTPOption`` to true
    /// (a test rig on another machine).
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when it is set but not such a URL.
    public func url(_ name: String) throws -> URL? {
        guard let value = values[name] else { return nil }
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
            let host = url.host(percentEncoded: false),
            !host.isEmpty, scheme == "https" || scheme == "http"
        else {
            throw invalid(name, value, expected: "a URL such as https://example.com")
        }
        if scheme == "http", !RemoteOptions.isLoopback(host), try boolean(RemoteOptions.allowInsecureHTTPOption) != true
        {
            throw invalid(
                name, value,
                expected:
                    "an https URL (plain http would send credentials unencrypted; it is accepted for localhost, 127.0.0.1 and ::1, or with the option \(RemoteOptions.allowInsecureHTTPOption)=true)"
            )
        }
        return url
    }

    /// The option that lets URL options use plain `http` for any host: `allow_insecure_http`.
    public static let allowInsecureHTTPOption = "allow_insecure_http"

    /// Whether a host is a loopback address: `localhost` (and names under it), `127.0.0.0/8`
    /// or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if lowered == "localhost" || lowered.hasSuffix(".localhost") || lowered == "::1" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The environment variable that overrides an option of a remote:
    /// `STRATUS_REMOTE_<REMOTE>_<OPTION>`, upper-cased, with every character that is not a
    /// letter or digit turned into `_`.
    public static func environmentName(remote: String, option: String) -> String {
        "STRATUS_REMOTE_\(environmentWord(remote))_\(environmentWord(option))"
    }

    static func environmentWord(_ text: String) -> String {
        String(text.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// Whether an option holds a secret (its name mentions a secret, token, password or key);
    /// such values never appear in messages.
    public static func isSecret(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["secret", "token", "password", "key"].contains { lowered.contains($0) }
    }

    func invalid(_ name: String, _ value: String, expected: String) -> ServiceError {
        let shown = RemoteOptions.isSecret(name) ? "set to a value that" : "\(value.debugDescription), which"
        return ServiceError(
            .invalidConfiguration,
            "Remote '\(remoteName)' option '\(name)' is \(shown) is not \(expected)."
        )
    }
}

extension RemoteOptions: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The remote, its type and its options, with secret values replaced by `<redacted>`.
    public var description: String {
        let shown = values.keys.sorted().map { "\($0): \(RemoteOptions.displayValue(values[$0] ?? "", forOption: $0))" }
        return "RemoteOptions(remote: \(remoteName), type: \(typeName), values: [\(shown.joined(separator: ", "))])"
    }

    /// The same as ``description``: secret values are never shown.
    public var debugDescription: String { description }

    /// A mirror that shows secret values as `<redacted>`, so `dump` does not print them.
    public var customMirror: Mirror {
        let shown = Dictionary(
            uniqueKeysWithValues: values.map { ($0.key, RemoteOptions.isSecret($0.key) ? "<redacted>" : $0.value) })
        return Mirror(self, children: ["remoteName": remoteName, "typeName": typeName, "values": shown])
    }

    /// A value as it may be shown: quoted, or `<redacted>` for a secret option.
    static func displayValue(_ value: String, forOption name: String) -> String {
        isSecret(name) ? "<redacted>" : value.debugDescription
    }
}
