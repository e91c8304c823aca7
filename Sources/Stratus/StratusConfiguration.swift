/// The named remotes an app can build services from, usually read from a JSON file.
///
/// ## The file
///
/// ```json
/// {
///   "remotes": {
///     "saves": { "type": "local", "options": { "root": "/home/me/.local/share/game/saves" } },
///     "cloud": { "type": "dropbox", "options": { "app_key": "...", "token_store": "..." } }
///   }
/// }
/// ```
///
/// - `remotes` maps a remote's name to its description. A file without it holds no remotes.
///   Other top-level keys are ignored, so a file written by a newer version still loads.
/// - Each remote has a `type`, the ``ServiceBackend/typeName`` of the backend that serves it,
///   and may have `options`, whose keys are the backend's ``ServiceBackend/options``. Option
///   values are strings; a number or `true`/`false` is accepted and kept as its text. Keys
///   other than `type` and `options` are refused (they are usually a typo), except keys that
///   start with `x-`, which are left for other tools.
///
/// ``load(from:environment:)`` and ``loadDefault(environment:)`` read the file and then apply
/// the overrides described in ``applyingEnvironmentOverrides(_:)``. ``save(to:)`` writes it back
/// with permissions 0600, because options may hold secrets.
///
/// Secret option values (see ``RemoteOptions/isSecret(_:)``) never appear in a description or an
/// error message.
public struct StratusConfiguration: Sendable, Codable, Hashable {
    /// One named remote: which backend serves it and the options it is built with.
    public struct Remote: Sendable, Codable, Hashable {
        /// The backend's type name, such as `"local"` or `"dropbox"`.
        public var type: String
        /// The option values by option name.
        public var options: [String: String]

        /// Describes a remote.
        /// - Parameters:
        ///   - type: The backend's type name, such as `"local"`.
        ///   - options: The option values by option name.
        public init(type: String, options: [String: String] = [:]) {
            self.type = type
            self.options = options
        }
    }

    /// The remotes by name.
    public var remotes: [String: Remote]

    /// Creates a configuration.
    /// - Parameter remotes: The remotes by name.
    public init(remotes: [String: Remote] = [:]) {
        self.remotes = remotes
    }

    /// The names of the remotes, sorted.
    public var remoteNames: [String] {
        remotes.keys.sorted()
    }

    /// The options of a remote, ready for ``ServiceRegistry/makeService(options:)``.
    /// - Parameter name: The remote's name, exactly as configured.
    /// - Returns: The remote's name, type and option values.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when no remote has that name; the
    ///   message lists the configured names.
    public func options(forRemote name: String) throws -> RemoteOptions {
        guard let remote = remotes[name] else {
            throw ServiceError(.invalidConfiguration, unknownRemoteMessage(name))
        }
        return RemoteOptions(remoteName: name, typeName: remote.type, values: remote.options)
    }

    private func unknownRemoteMessage(_ name: String) -> String {
        let known =
            remoteNames.isEmpty
            ? "no remotes are configured"
            : "configured remotes: " + remoteNames.joined(separator: ", ")
        let typeVariable = RemoteOptions.environmentName(remote: name, option: "type")
        return
            "There is no remote named '\(name)'; \(known). Add it to the configuration file, or define it by setting \(typeVariable)."
    }
}

// MARK: - Codable

extension StratusConfiguration {
    private enum CodingKeys: String, CodingKey {
        case remotes
    }

    /// Reads a configuration; a missing `remotes` key means no remotes, and unknown top-level
    /// keys are ignored.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when `remotes` or a remote in it is malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.remotes = try container.decodeIfPresent([String: Remote].self, forKey: .remotes) ?? [:]
    }

    /// Writes the configuration as `{"remotes": {...}}`.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(remotes, forKey: .remotes)
    }
}

extension StratusConfiguration.Remote {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { self.stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let type = Key("type")
        static let options = Key("options")
        static let extensionPrefix = "x-"
    }

    /// Reads a remote: `type` is required, `options` optional; scalar option values (strings,
    /// numbers, booleans) are kept as text.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when `type` is missing, an option value is not a scalar, or
    ///   the remote has a key other than `type`, `options` or one starting with `x-`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let unknown = container.allKeys
            .map(\.stringValue)
            .filter {
                $0 != Key.type.stringValue && $0 != Key.options.stringValue && !$0.hasPrefix(Key.extensionPrefix)
            }
            .sorted()
        if let first = unknown.first {
            throw DecodingError.dataCorruptedError(
                forKey: Key(first),
                in: container,
                debugDescription:
                    "unknown key '\(first)'; a remote has only \"type\" and \"options\" (keys starting with \"x-\" are ignored)"
            )
        }
        self.type = try container.decode(String.self, forKey: .type)
        let scalars = try container.decodeIfPresent([String: OptionValue].self, forKey: .options) ?? [:]
        self.options = scalars.mapValues(\.text)
    }

    /// Writes the remote as `{"type": ..., "options": {...}}`.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(type, forKey: .type)
        try container.encode(options, forKey: .options)
    }
}

/// An option value as written in the file: a string, or a number or boolean kept as its text.
private struct OptionValue: Decodable {
    var text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else if let boolean = try? container.decode(Bool.self) {
            text = boolean ? "true" : "false"
        } else if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else if let number = try? container.decode(Double.self) {
            text = String(number)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "an option value must be a string, a number or true/false"
            )
        }
    }
}

// MARK: - Descriptions without secrets

extension StratusConfiguration.Remote: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The type and options, with secret values replaced by `<redacted>`.
    public var description: String {
        let options = self.options.keys.sorted().map { key in
            "\(key): \(RemoteOptions.displayValue(self.options[key] ?? "", forOption: key))"
        }
        return "\(type) [\(options.joined(separator: ", "))]"
    }

    /// The same as ``description``: secret values are never shown.
    public var debugDescription: String { description }

    /// A mirror that shows secret values as `<redacted>`, so `dump` does not print them.
    public var customMirror: Mirror {
        let shown = Dictionary(
            uniqueKeysWithValues: options.map { ($0.key, RemoteOptions.isSecret($0.key) ? "<redacted>" : $0.value) })
        return Mirror(self, children: ["type": type, "options": shown])
    }
}

extension StratusConfiguration: CustomStringConvertible, CustomDebugStringConvertible {
    /// The remotes, with secret option values replaced by `<redacted>`.
    public var description: String {
        let entries = remoteNames.map { name in "\(name): \(remotes[name]?.description ?? "")" }
        return "StratusConfiguration(" + entries.joined(separator: "; ") + ")"
    }

    /// The same as ``description``: secret values are never shown.
    public var debugDescription: String { description }
}
