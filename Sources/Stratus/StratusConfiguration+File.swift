public import Foundation
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension StratusConfiguration {
    /// Where the configuration file is looked for: `$STRATUS_CONFIG` when set, else
    /// `$XDG_CONFIG_HOME/stratus/remotes.json` (when that is an absolute path, as the XDG
    /// specification asks), else `~/.config/stratus/remotes.json`.
    /// - Parameter environment: The environment to read the variables from.
    /// - Returns: The file's location; the file may not exist.
    public static func defaultFileURL(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let explicit = environment[configVariable], !explicit.isEmpty {
            return URL(fileURLWithPath: expandingTilde(explicit, environment: environment))
        }
        let configHome: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            configHome = homeDirectory(environment: environment).appendingPathComponent(".config", isDirectory: true)
        }
        return
            configHome
            .appendingPathComponent("stratus", isDirectory: true)
            .appendingPathComponent("remotes.json", isDirectory: false)
    }

    /// Loads the configuration from ``defaultFileURL(environment:)`` and applies the
    /// environment's overrides.
    ///
    /// When the file is missing from the XDG or home location, the configuration is empty (apart
    /// from remotes the environment defines), so an app works before anyone writes a file. A
    /// file named by `$STRATUS_CONFIG` must exist: a missing one is an error.
    /// - Parameter environment: The environment that locates the file and holds overrides.
    /// - Returns: The configuration.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when the file cannot be read or is not
    ///   valid, when `$STRATUS_CONFIG` names a missing file, or when an override is ambiguous.
    public static func loadDefault(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> StratusConfiguration {
        let url = defaultFileURL(environment: environment)
        let isExplicit = !(environment[configVariable] ?? "").isEmpty
        guard isExplicit || FileManager.default.fileExists(atPath: url.path) else {
            return try StratusConfiguration().applyingEnvironmentOverrides(environment)
        }
        return try load(from: url, environment: environment)
    }

    /// Loads a configuration file and applies the environment's overrides.
    /// - Parameters:
    ///   - url: The file to read; it must exist.
    ///   - environment: The environment whose `STRATUS_REMOTE_*` variables override the file
    ///     (see ``applyingEnvironmentOverrides(_:)``); pass `[:]` for the file alone.
    /// - Returns: The configuration.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when the file is missing or unreadable,
    ///   is not valid JSON, or does not follow the schema (the message names the file and where
    ///   in it the problem is), or when an override is ambiguous.
    public static func load(
        from url: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> StratusConfiguration {
        let data = try readFile(at: url)
        return try decode(data, from: url).applyingEnvironmentOverrides(environment)
    }

    /// Writes the configuration as JSON, replacing the file atomically.
    ///
    /// The content goes to a temporary file in the same folder, created with permissions 0600
    /// (options may hold secrets) and flushed to disk, which is then renamed over the file, so a
    /// reader sees the old file or the new one, never a mix. Missing folders are created with
    /// permissions 0700. When the file is a symbolic link, the file it points to is replaced.
    /// - Parameter url: Where to write the file.
    /// - Throws: ``ServiceError`` (`localFile`) when the folder or the file cannot be written.
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw ServiceError(.localFile, "The configuration could not be encoded as JSON.")
        }
        data.append(contentsOf: Array("\n".utf8))
        try AtomicFileWriter.replace(url.resolvingSymlinksInPath(), with: data)
    }

    static let configVariable = "STRATUS_CONFIG"

    private static func homeDirectory(environment: [String: String]) -> URL {
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    private static func expandingTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return homeDirectory(environment: environment).path + path.dropFirst()
    }

    private static func readFile(at url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            throw ServiceError(
                .invalidConfiguration,
                "The configuration file \(url.path) does not exist. Create it with a \"remotes\" object (see StratusConfiguration), or give the path of an existing file."
            )
        } catch {
            throw ServiceError(
                .invalidConfiguration,
                "The configuration file \(url.path) could not be read: \(readProblem(error, at: url)). Check that it is a readable file."
            )
        }
    }

    private static func readProblem(_ error: any Error, at url: URL) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            return "it is a folder"
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error {
            let posix = underlying as NSError
            if posix.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(posix.code)))
            }
        }
        return nsError.localizedDescription
    }

    private static func decode(_ data: Data, from url: URL) throws -> StratusConfiguration {
        do {
            return try JSONDecoder().decode(StratusConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw ServiceError(
                .invalidConfiguration,
                "The configuration file \(url.path) is not valid: \(ConfigurationProblem.describe(error, in: data)). Expected {\"remotes\": {\"NAME\": {\"type\": \"TYPE\", \"options\": {\"OPTION\": \"VALUE\"}}}}."
            )
        } catch {
            throw ServiceError(.invalidConfiguration, "The configuration file \(url.path) is not valid: \(error).")
        }
    }
}

/// Turns a decoding error into words that say where in the file the problem is, without
/// quoting any value from it (values may be secrets).
private enum ConfigurationProblem {
    static func describe(_ error: DecodingError, in data: Data) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "at \(location(context.codingPath)), expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "at \(location(context.codingPath)), expected \(typeName(type)) but found null"
        case .keyNotFound(let key, let context):
            return "at \(location(context.codingPath)), the required key \"\(key.stringValue)\" is missing"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON (\(syntaxProblem(in: data)))"
        case .dataCorrupted(let context):
            return "at \(location(context.codingPath)), \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// `remotes.cloud.options.app_key`, or `the top level`.
    private static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        return path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }.joined(separator: ".")
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String: StratusConfiguration.Remote].Type: "an object of remotes by name"
        default:
            String(describing: type).hasPrefix("Dictionary") ? "an object" : "a \(type)"
        }
    }

    /// JSONDecoder does not say where the syntax breaks; JSONSerialization gives a character
    /// offset, which is turned into a line and column.
    private static func syntaxProblem(in data: Data) -> String {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            return "the file is empty"
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "the top level must be an object"
        } catch {
            let debugText = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "unreadable"
            let text = debugText.hasSuffix(".") ? String(debugText.dropLast()) : debugText
            guard let offset = characterOffset(in: text), offset <= data.count else { return text }
            let before = data.prefix(offset)
            let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? data.startIndex
            let column = offset - (lineStart - data.startIndex) + 1
            let reason = text.prefix { $0 != "." }.replacingOccurrences(of: " around character \(offset)", with: "")
            return "\(reason) at line \(line), column \(column)"
        }
    }

    private static func characterOffset(in text: String) -> Int? {
        guard let range = text.range(of: "around character ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}

/// Replaces a file atomically with content only its owner can read, through StratusFileSystem's
/// ``/StratusFileSystem/AtomicFile``.
private enum AtomicFileWriter {
    static func replace(_ url: URL, with data: Data) throws {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw ServiceError(
                .localFile,
                "The folder \(folder.path) for the configuration file could not be created. Check that its parent is writable.",
                underlying: error
            )
        }

        do {
            try AtomicFile.write(data, to: url.path, mode: 0o600, ignoringUmask: true)
        } catch {
            let action =
                switch error.operation {
                case "open": "create a temporary file in \(folder.path)"
                case "fchmod": "set permissions 0600 on \(error.path)"
                case "write": "write \(error.path)"
                case "fsync": "flush \(error.path) to disk"
                default: "replace \(url.path)"
                }
            throw failure(action, error.errorNumber)
        }
    }

    private static func failure(_ action: String, _ code: Int32) -> ServiceError {
        ServiceError(
            .localFile,
            "Could not \(action) while saving the configuration: \(String(cString: strerror(code))). Check that the folder exists and is writable."
        )
    }
}
