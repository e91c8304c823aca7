import Foundation

/// A Graph drive URL taken apart: the item it starts from (the root, the app folder, an item
/// by id), the path below it (`root:/a/b.txt:`), and what is asked of it (`children`,
/// `content`, `delta`, `versions/{id}`, ...).
///
/// The path is percent-decoded as a whole first, so `items/root%3A%2Fa.txt%3A/content` (an
/// id-shaped path as SDKs built on Kiota send it) reads like `items/root:/a.txt:/content`;
/// OneDrive names cannot hold `:` or `/`, so nothing is lost.
struct GraphAddress: Sendable, Equatable {
    /// Where the address starts.
    enum Base: Sendable, Equatable {
        /// The drive itself (`/me/drive`).
        case drive
        /// The root folder.
        case root
        /// The app folder (`special/approot`).
        case appRoot
        /// An item by id.
        case item(String)
    }

    /// Where the address starts.
    var base: Base
    /// The names of the path below the base (`:/a/b:`), if any.
    var path: [String]
    /// The segments after the item: `[]`, `["children"]`, `["content"]`, `["delta"]`,
    /// `["createUploadSession"]`, `["versions"]`, `["versions", id]`, `["versions", id, "content"]`,
    /// `["versions", id, "restoreVersion"]`.
    var action: [String]
    /// The drive id named in `/drives/{id}`, if the address used that form.
    var driveID: String?
    /// The `token` of a `delta(token='...')` call.
    var functionToken: String?

    /// Takes apart the path of a request under `/v1.0`.
    /// - Returns: The address, or `nil` when it is not a drive URL the mock knows.
    static func parse(_ rawPath: String) -> GraphAddress? {
        guard let decoded = rawPath.removingPercentEncoding else { return nil }
        var rest = Substring(decoded)
        guard rest.hasPrefix("/v1.0/") else { return nil }
        rest = rest.dropFirst(5)
        var driveID: String?
        if rest.hasPrefix("/me/drive") {
            rest = rest.dropFirst(9)
        } else if rest.hasPrefix("/drive/") || rest == "/drive" {
            rest = rest.dropFirst(6)
        } else if rest.hasPrefix("/drives/") {
            rest = rest.dropFirst(8)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            driveID = String(rest[..<end])
            rest = rest[end...]
        } else {
            return nil
        }
        if rest.isEmpty || rest == "/" {
            return GraphAddress(base: .drive, path: [], action: [], driveID: driveID)
        }
        let base: Base
        if rest.hasPrefix("/root") {
            base = .root
            rest = rest.dropFirst(5)
        } else if rest.hasPrefix("/special/") {
            rest = rest.dropFirst(9)
            let end = rest.firstIndex { $0 == "/" || $0 == ":" } ?? rest.endIndex
            guard rest[..<end].lowercased() == "approot" else { return nil }
            base = .appRoot
            rest = rest[end...]
        } else if rest.hasPrefix("/items/") {
            rest = rest.dropFirst(7)
            let end = rest.firstIndex { $0 == "/" || $0 == ":" } ?? rest.endIndex
            let id = String(rest[..<end])
            guard !id.isEmpty else { return nil }
            base = id.lowercased() == "root" ? .root : .item(id)
            rest = rest[end...]
        } else {
            return nil
        }
        var path: [String] = []
        if rest.hasPrefix(":") {
            rest = rest.dropFirst()
            let end = rest.firstIndex(of: ":") ?? rest.endIndex
            path = rest[..<end].split(separator: "/").map(String.init)
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
        }
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        var action = rest.split(separator: "/").map(String.init)
        var token: String?
        if let last = action.last, last.hasPrefix("delta(") {
            // delta(), delta(token='...')
            let inside = last.dropFirst(6).dropLast(last.hasSuffix(")") ? 1 : 0)
            if inside.hasPrefix("token=") {
                token = String(inside.dropFirst(6)).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            }
            action[action.count - 1] = "delta"
        }
        return GraphAddress(base: base, path: path, action: action, driveID: driveID, functionToken: token)
    }
}
