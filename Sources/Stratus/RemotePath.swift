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
    /// - Throws: ``ServiceError`` (`invalidPath`) when the component is not valid, or names no
    ///   child at all (`""` or `"/"`).
    public func appending(_ component: String) throws -> RemotePath {
        let child = try RemotePath(component)
        // An empty name would give back this folder's own path, and a write meant for a child
        // would land on it.
        guard !child.isRoot else {
            throw ServiceError(
                .invalidPath,
                "Cannot append \(component.debugDescription) to the path \(string.debugDescription): it names no file or folder. Give a name such as \"slot-1.json\"."
            )
        }
        return RemotePath(validatedComponents: components + child.components)
    }

    /// Whether `other` is this path or lies below it.
    public func contains(_ other: RemotePath) -> Bool {
        other.components.count >= components.count
            && zip(components, other.components).allSatisfy { RemotePath.sameScalars($0, $1) }
    }

    /// The path as ``string``: its components joined by `/`.
    public var description: String { string }

    // Equality, hashing and order compare Unicode scalars, not Swift's canonical equivalence:
    // "café" written precomposed and decomposed are two different files on many providers
    // (and on Linux file systems), and must not merge in a Set or a dictionary.

    /// Whether two paths have the same components, Unicode scalar for scalar.
    public static func == (lhs: RemotePath, rhs: RemotePath) -> Bool {
        lhs.components.count == rhs.components.count
            && zip(lhs.components, rhs.components).allSatisfy { sameScalars($0, $1) }
    }

    /// Hashes the components' UTF-8 bytes, consistently with `==`.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(components.count)
        for component in components {
            hasher.combine(component.utf8.count)
            for byte in component.utf8 { hasher.combine(byte) }
        }
    }

    /// Orders paths component by component, each by its UTF-8 bytes (Unicode scalar order).
    public static func < (lhs: RemotePath, rhs: RemotePath) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func sameScalars(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
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
    /// Decodes a path from a string, validated as ``init(_:)`` does; an invalid path is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            try self.init(try container.decode(String.self))
        } catch let error as ServiceError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes the path as its ``string``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
