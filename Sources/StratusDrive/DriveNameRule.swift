import Foundation

/// Which of several same-named entries in one folder a path means.
///
/// Drive allows any number of files and folders with the same name in one folder. A path
/// names the **oldest** of them: the smallest `createdTime`, ties broken by the smallest `id`
/// (compared byte by byte). Every client applies the same rule to the same folder, so they all
/// agree, and the pick only changes when that entry goes away. An entry without a
/// `createdTime` sorts after every dated one. The other entries stay on Drive untouched and
/// are not listed.
enum DriveNameRule {
    /// The entry a path means among same-named candidates, or `nil` when there are none.
    static func preferred(_ candidates: [DriveFile]) -> DriveFile? {
        candidates.min(by: precedes)
    }

    /// Whether `a` is preferred over `b`.
    static func precedes(_ a: DriveFile, _ b: DriveFile) -> Bool {
        switch (a.createdTime, b.createdTime) {
        case (let x?, let y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    /// What stands for `/` in a path component made from a Drive name: U+2215 DIVISION SLASH.
    static let slashStandIn = "\u{2215}"

    /// The path component a Drive name is listed under. Drive allows `/` in a name, where it
    /// would split the name into nested folders; each `/` becomes ``slashStandIn`` (`∕`)
    /// instead, so `a/b` is the one entry `a∕b` and never the file `b` in a folder `a`. Every
    /// other name is its own component.
    static func component(_ driveName: String) -> String {
        driveName.contains("/") ? driveName.replacingOccurrences(of: "/", with: slashStandIn) : driveName
    }

    /// Whether a Drive name is listed as a path component, Unicode scalar for scalar (Drive's own
    /// `name =` matching may fold case or normalize; the adapter does not). A component with
    /// `∕` means both the Drive name with `∕` and the one with `/` there (the oldest wins, as for
    /// any same-named entries).
    static func sameName(_ driveName: String, _ component: String) -> Bool {
        Self.component(driveName).utf8.elementsEqual(component.utf8)
    }
}

/// Builds `q` search terms.
enum DriveQuery {
    /// A quoted string literal: `'...'` with `\` and `'` escaped by a backslash.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || character == "'" { escaped.append("\\") }
            escaped.append(character)
        }
        return "'" + escaped + "'"
    }

    /// The untrashed children of a folder, optionally only those with a name. A name with the
    /// slash stand-in may be spelled with `/` on Drive, so it is matched by the caller instead.
    static func children(of folderID: String, named name: String? = nil) -> String {
        var terms = ["\(literal(folderID)) in parents"]
        if let name, !name.contains(DriveNameRule.slashStandIn) { terms.append("name = \(literal(name))") }
        terms.append("trashed = false")
        return terms.joined(separator: " and ")
    }
}
