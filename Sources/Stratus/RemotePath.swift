import Foundation

/// A path to a file or folder inside a service's root, such as `saves/slot-1.json`.
///
/// A path is a list of non-empty components joined by `/`. It is always relative to the root
/// the service was configured with; a leading `/` is accepted and dropped. Components are kept
/// exactly as written (no Unicode normalization, no case folding): whether two paths name the
/// same file is the provider's rule, described by ``PathRules``.
public struct RemotePath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The components, outermost first. Empty for the root.
    public let components: [String]

    /// The root of the service.
    public static let root = RemotePath(validatedComponents: [])

    /// Parses and validates a path.
    /// - Parameter string: Components separated by `/`; one leading `/` is allowed.
    /// - Throws: ``ServiceError`` with code ``ServiceError/Code/invalidPath`` when a component is
    ///   empty, `.` or `..`, or contains NUL or another control character.
    public init(_ string: String) throws {
        var trimmed = Substring(string)
        if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        if trimmed.isEmpty {
            self = .root
            return
        }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            try RemotePath.validate(component: part, in: string)
        }
        self.components = parts
    }

    /// Builds a path from components that are already known to be valid.
    init(validatedComponents: [String]) {
        self.components = validatedComponents
    }

    /// The path as text, components joined by `/`, without a leading slash.
    public var string: String { components.joined(separator: "/") }

    /// The last component, or `""` for the root.
    public var name: String { components.last ?? "" }

    /// The folder that holds this path, or `nil` for the root.
    public var parent: RemotePath? {
        isRoot ? nil : RemotePath(validatedComponents: Array(components.dropLast()))
    }

    /// Whether this is the service's root.
    public var isRoot: Bool { components.isEmpty }

    /// The path of a child of this folder.
    /// - Parameter component: One component or several joined by `/`.
    /// - Throws: ``ServiceError`` (`invalidPath`) when the component is not valid.
    public func appending(_ component: String) throws -> RemotePath {
        let child = try RemotePath(component)
        return RemotePath(validatedComponents: components + child.components)
    }

    /// Whether `other` is this path or lies below it.
    public func contains(_ other: RemotePath) -> Bool {
        other.components.count >= components.count && Array(other.components.prefix(components.count)) == components
    }

    public var description: String { string }

    public static func < (lhs: RemotePath, rhs: RemotePath) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components)
    }

    private static func validate(component: String, in whole: String) throws {
        let reason: String?
        if component.isEmpty {
            reason = "it has an empty component (two slashes in a row, or a trailing slash)"
        } else if component == "." || component == ".." {
            reason = "'\(component)' is not allowed as a component"
        } else if component.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            reason = "it contains NUL or another control character"
        } else {
            reason = nil
        }
        if let reason {
            throw ServiceError(
                .invalidPath,
                "The path \(whole.debugDescription) is not valid: \(reason). Use names separated by single '/' characters."
            )
        }
    }
}

extension RemotePath: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            try self.init(try container.decode(String.self))
        } catch let error as ServiceError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
