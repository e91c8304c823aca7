import Foundation
import Stratus
import StratusHTTP

/// Graph URLs for paths below the root: `me/drive/special/approot:/a/b.txt:` for the app folder,
/// `me/drive/root:/Games/Saves/a/b.txt:` for a folder of the drive, and
/// `me/drive/items/{id}` once an item's id is known. Each name is percent-encoded on its own,
/// so `#`, `?`, `%`, spaces and non-ASCII names survive.
struct OneDriveAddress: Sendable {
    let apiURL: URL
    let rootComponents: [String]
    let isAppFolder: Bool

    /// The item at a path below the root (the root itself for `.root`).
    func item(_ path: RemotePath, _ action: String? = nil, query: [(String, String)] = []) -> URL {
        let names = rootComponents + path.components
        var text: String
        if isAppFolder {
            text = "me/drive/special/approot"
            if !names.isEmpty { text += ":/" + Self.encode(names) + ":" }
        } else {
            text = "me/drive/root"
            if !names.isEmpty { text += ":/" + Self.encode(names) + ":" }
        }
        if let action { text += "/" + action }
        return url(text, query)
    }

    /// An item by id.
    func item(id: String, _ action: String? = nil, query: [(String, String)] = []) -> URL {
        var text = "me/drive/items/" + PercentEncoding.encode(id)
        if let action { text += "/" + action }
        return url(text, query)
    }

    /// `<apiURL>/<text>?<query>`, with `text` already percent-encoded.
    func url(_ text: String, _ query: [(String, String)] = []) -> URL {
        var base = apiURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        var whole = base + "/" + text
        if !query.isEmpty {
            whole += "?" + PercentEncoding.query(query.map { (name: $0.0, value: $0.1) })
        }
        return URL(string: whole) ?? apiURL
    }

    /// Names joined by `/`, each percent-encoded except RFC 3986's unreserved characters.
    static func encode(_ names: [String]) -> String {
        names.map { PercentEncoding.encode($0) }.joined(separator: "/")
    }
}
