import Foundation

/// A path in the mock's namespace: display form (case kept) and key (lowercased).
struct DropboxPath: Sendable, Hashable {
    /// The path as the client wrote it, such as `/Saves/Slot 1.dat`; `""` is the root.
    let display: String

    /// The case-insensitive key.
    var key: String { display.lowercased() }

    /// The last component; `""` for the root.
    var name: String { display.split(separator: "/").last.map(String.init) ?? "" }

    /// The parent folder; the root's parent is the root.
    var parent: DropboxPath {
        guard let slash = display.lastIndex(of: "/") else { return DropboxPath(display: "") }
        return DropboxPath(display: String(display[..<slash]))
    }

    /// Every ancestor folder below the root, nearest to the root first.
    var ancestors: [DropboxPath] {
        var result: [DropboxPath] = []
        var current = parent
        while !current.display.isEmpty {
            result.insert(current, at: 0)
            current = current.parent
        }
        return result
    }

    /// This path with another last component.
    func renamed(_ name: String) -> DropboxPath {
        DropboxPath(display: parent.display + "/" + name)
    }

    /// Whether `other` lies inside this folder (directly, or at any depth when `recursive`).
    func contains(_ other: DropboxPath, recursive: Bool) -> Bool {
        let prefix = key + "/"
        guard other.key.hasPrefix(prefix) else { return false }
        return recursive || !other.key.dropFirst(prefix.count).contains("/")
    }

    /// Why a path was refused.
    enum Problem: Error {
        /// It does not match the route's pattern (a 400 in Dropbox).
        case pattern
        /// `"/"` on a route whose root is `""` (a 400 in Dropbox, with its own message).
        case slashRoot
        /// It matches the pattern but is not a usable path (`malformed_path`).
        case malformed
    }

    /// Parses a slash path; `""` is the root only when `allowRoot`.
    ///
    /// A path with an empty, `.` or `..` component, a trailing `/` (also `"/"` itself where the
    /// root is not allowed), NUL or another C0 control character, or DEL is `malformed_path`,
    /// as Dropbox answers such paths: it refuses them rather than tidying them up, so a client
    /// that relies on tidying finds out here and not in production.
    /// - Throws: ``Problem``.
    init(parsing raw: String, allowRoot: Bool) throws(Problem) {
        if raw.isEmpty {
            guard allowRoot else { throw .pattern }
            display = ""
            return
        }
        guard raw.hasPrefix("/") else { throw .pattern }
        if raw == "/" { throw allowRoot ? .slashRoot : .malformed }
        // A trailing slash leaves an empty last component, refused below like `//`.
        let components = raw.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            if component.isEmpty || component == "." || component == ".." { throw .malformed }
            if component.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { throw .malformed }
            if component.hasSuffix(" ") { throw .malformed }
        }
        display = raw
    }

    private init(display: String) {
        self.display = display
    }
}
