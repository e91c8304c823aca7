import MockSupport

/// A file or folder path of the Depot protocol, as the mock keeps it.
///
/// Paths are compared and ordered by their UTF-8 bytes, never by Swift's `String` equality,
/// which treats the composed and decomposed forms of a name as one: a real file store keeps
/// the bytes it was given, and so does the mock.
struct DepotPath: Hashable, Comparable, Sendable {
    /// The names, each non-empty and without `/`.
    let names: [String]
    /// The names joined with `/`; empty for the root.
    var text: String { names.joined(separator: "/") }
    /// The path's bytes, the key files are stored under.
    var key: [UInt8] { Array(text.utf8) }

    /// The root folder.
    static let root = DepotPath(names: [])
    /// The longest name, in UTF-8 bytes.
    static let longestName = 255

    init(names: [String]) {
        self.names = names
    }

    /// Parses percent-encoded names separated by `/`, as they follow `/files/` in a URL.
    /// - Throws: ``DepotFailure`` (400) for an empty name or a broken escape.
    init(encoded: some StringProtocol) throws(DepotFailure) {
        guard !encoded.isEmpty else {
            names = []
            return
        }
        var names: [String] = []
        for piece in encoded.split(separator: "/", omittingEmptySubsequences: false) {
            let name: String
            do {
                name = try PercentEncoding.decode(piece, plusAsSpace: false)
            } catch {
                throw .badRequest("A name in the path is not percent-encoded UTF-8: \(error)")
            }
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw .badRequest("The path has an empty, '.' or '..' name, or a name with '/'.", code: "invalid_path")
            }
            guard name.utf8.count <= Self.longestName else {
                throw .badRequest(
                    "A name has \(name.utf8.count) bytes; at most \(Self.longestName) are allowed.",
                    code: "invalid_path")
            }
            names.append(name)
        }
        self.names = names
    }

    /// Parses a path written plainly, as the `prefix` query parameter carries it.
    /// - Throws: ``DepotFailure`` (400) for an empty, `.` or `..` name.
    init(plain text: String) throws(DepotFailure) {
        let names = text.isEmpty ? [] : text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard names.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw .badRequest("The prefix has an empty, '.' or '..' name.")
        }
        self.names = names
    }

    /// Whether this path is strictly below `folder`.
    func isBelow(_ folder: DepotPath) -> Bool {
        let own = key
        let prefix = folder.key
        if prefix.isEmpty { return !own.isEmpty }
        return own.count > prefix.count && own.starts(with: prefix) && own[prefix.count] == UInt8(ascii: "/")
    }

    /// The paths of the folders above this one, nearest last, the root left out.
    var ancestors: [DepotPath] {
        (0..<max(0, names.count - 1)).map { DepotPath(names: Array(names[0...$0])) }
    }

    static func == (lhs: DepotPath, rhs: DepotPath) -> Bool { lhs.key == rhs.key }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }
    static func < (lhs: DepotPath, rhs: DepotPath) -> Bool { lhs.key.lexicographicallyPrecedes(rhs.key) }
}
