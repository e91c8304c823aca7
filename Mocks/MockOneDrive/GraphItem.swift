import Foundation
import MockSupport

/// A file or folder of the mock drive.
struct GraphItem: Sendable, Codable {
    /// The item's id, `<drive id>!<number>` as OneDrive personal writes them.
    var id: String
    /// The name, case preserved (names are compared without case).
    var name: String
    /// The parent folder's id; `nil` for the root.
    var parentID: String?
    /// Whether the item is a folder.
    var isFolder: Bool
    /// When it was created.
    var created: Date
    /// When it last changed.
    var modified: Date
    /// `fileSystemInfo.createdDateTime` as a client set it (`createUploadSession` or `PATCH`);
    /// `nil` for ``created``.
    var fileSystemCreated: Date?
    /// `fileSystemInfo.lastModifiedDateTime` as a client set it; `nil` for ``modified``. A new
    /// version without one resets it.
    var fileSystemModified: Date?
    /// Bumped by every change: the number in the `eTag`.
    var eTagVersion = 1
    /// Bumped by every content change: the number in the `cTag`.
    var cTagVersion = 1
    /// The content's versions, oldest first: the last is the current content (files only).
    var versions: [GraphVersion] = []
    /// The next version number.
    var nextVersionNumber = 1
    /// The `specialFolder` name, such as `approot`.
    var specialFolder: String?
    /// The position of the item's latest entry in the change log.
    var lastChange = 0
    /// Whether the eTag is still to change once more after an upload (the drift option).
    var driftPending = false

    /// The current content (files only).
    var content: GraphVersion? { versions.last }

    /// The `eTag`: `a` and the Base64 of `<id>.<version>`, as OneDrive personal writes it.
    var eTag: String { "a" + Data("\(id).\(eTagVersion)".utf8).base64EncodedString() }

    /// The `cTag`: `a` and the Base64 of `c:<id>.<content version>`.
    var cTag: String { "a" + Data("c:\(id).\(cTagVersion)".utf8).base64EncodedString() }

    /// Whether an `If-Match` value names this item's current state (its eTag or cTag, with or
    /// without quotes, `*` for any).
    func matches(_ tag: String) -> Bool {
        let bare = GraphItem.bareTag(tag)
        return bare == "*" || bare == eTag || bare == cTag
    }

    /// A tag without `W/` and surrounding quotes.
    static func bareTag(_ tag: String) -> String {
        var text = tag.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        return text
    }
}

/// One version of a file's content.
struct GraphVersion: Sendable, Codable {
    /// The version's id: `1.0`, `2.0`, ...
    var id: String
    /// The bytes.
    var blob: BlobInfo
    /// The QuickXorHash of the bytes, Base64.
    var quickXorHash: String
    /// When this version was written.
    var modified: Date
}

/// A deleted item as the change log remembers it, for `delta`'s `deleted` facet.
struct GraphTombstone: Sendable, Codable {
    /// The item's id.
    var id: String
    /// Its name.
    var name: String
    /// Its parent's id when it was deleted.
    var parentID: String?
    /// Whether it was a folder.
    var isFolder: Bool
    /// The position of its deletion in the change log.
    var change: Int
}

/// A folder's children by name: a dictionary for lookups and a sorted array of the lowercased
/// names for paging, so both are O(log n) or better.
struct FolderIndex: Sendable {
    /// Lowercased name to item id.
    var byName: [String: String] = [:]
    /// The lowercased names, sorted.
    var sortedNames: [String] = []

    /// Adds a child.
    mutating func insert(_ name: String, id: String) {
        let key = name.lowercased()
        if byName.updateValue(id, forKey: key) == nil {
            sortedNames.insert(key, at: lowerBound(key))
        }
    }

    /// Removes a child.
    mutating func remove(_ name: String) {
        let key = name.lowercased()
        guard byName.removeValue(forKey: key) != nil else { return }
        let index = lowerBound(key)
        if index < sortedNames.count, sortedNames[index] == key { sortedNames.remove(at: index) }
    }

    /// The index of the first name at or above `key`.
    func lowerBound(_ key: String) -> Int {
        bound(key) { $0 < key }
    }

    /// The index of the first name above `key`: where a page after `key` starts.
    func upperBound(_ key: String) -> Int {
        bound(key) { $0 <= key }
    }

    private func bound(_ key: String, isBefore: (String) -> Bool) -> Int {
        var low = 0
        var high = sortedNames.count
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(sortedNames[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
