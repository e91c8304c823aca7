import Foundation

/// An `orderBy` value of `files.list`: keys such as `folder,name desc,modifiedTime`.
struct FileOrdering: Sendable {
    enum Key: String, Sendable {
        case createdTime, folder, modifiedByMeTime, modifiedTime, name
        case nameNatural = "name_natural"
        case quotaBytesUsed
        case recency, sharedWithMeTime, starred, viewedByMeTime
    }

    var keys: [(key: Key, descending: Bool)]

    /// Why an `orderBy` was refused.
    struct ParseError: Error {}

    /// Parses an `orderBy` value.
    init(parsing text: String?) throws(ParseError) {
        keys = []
        for part in (text ?? "").split(separator: ",") {
            let words = part.split(separator: " ", omittingEmptySubsequences: true)
            guard (1...2).contains(words.count), let key = Key(rawValue: String(words[0])) else { throw ParseError() }
            var descending = false
            if words.count == 2 {
                guard words[1].lowercased() == "desc" || words[1].lowercased() == "asc" else { throw ParseError() }
                descending = words[1].lowercased() == "desc"
            }
            keys.append((key, descending))
        }
    }

    /// Whether `a` sorts before `b`; ties fall back to the order of creation.
    func precedes(_ a: DriveNode, _ b: DriveNode) -> Bool {
        for (key, descending) in keys {
            let order = Self.compare(key, a, b)
            if order != .orderedSame {
                return descending ? order == .orderedDescending : order == .orderedAscending
            }
        }
        return a.serial < b.serial
    }

    private static func compare(_ key: Key, _ a: DriveNode, _ b: DriveNode) -> ComparisonResult {
        func ordered<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        switch key {
        case .folder: return ordered(a.isFolder ? 0 : 1, b.isFolder ? 0 : 1)
        case .name:
            let folded = a.name.compare(b.name, options: [.caseInsensitive])
            return folded == .orderedSame ? ordered(a.name, b.name) : folded
        case .nameNatural:
            return a.name.compare(b.name, options: [.caseInsensitive, .numeric])
        case .createdTime: return ordered(a.createdTime, b.createdTime)
        case .modifiedTime, .modifiedByMeTime, .viewedByMeTime, .recency: return ordered(a.modifiedTime, b.modifiedTime)
        case .quotaBytesUsed: return ordered(a.head?.blob.size ?? 0, b.head?.blob.size ?? 0)
        case .starred: return ordered(a.starred ? 0 : 1, b.starred ? 0 : 1)
        case .sharedWithMeTime: return .orderedSame
        }
    }
}

/// Opaque page tokens of `files.list` and `revisions.list`: an offset into the listing, bound
/// to the request that made it.
enum OffsetPageToken {
    static func make(offset: Int, binding: String) -> String {
        let text = "\(offset)|\(binding)"
        return Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The offset of a token made for the same `binding`, or `nil`.
    static func offset(of token: String, binding: String) -> Int? {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            let bar = text.firstIndex(of: "|"), String(text[text.index(after: bar)...]) == binding,
            let offset = Int(text[..<bar]), offset >= 0
        else { return nil }
        return offset
    }
}
