import ArgumentParser
import Stratus

/// `NAME:path`, a file or folder on a named remote. `NAME:` is the remote's root.
struct RemoteLocation: CustomStringConvertible {
    var remote: String
    var path: RemotePath
    /// Whether it was written with a trailing `/` (or is the root): a folder, not a file.
    var namesFolder: Bool

    /// Parses `NAME:path` for an argument's `transform`.
    /// - Throws: `ValidationError` saying what a location looks like, or why the path is invalid.
    static func parse(_ argument: String) throws -> RemoteLocation {
        guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else {
            throw ValidationError(
                "'\(argument)' is not a remote location; write NAME:path, such as saves:slot-1.json (NAME: alone is the remote's root)."
            )
        }
        let name = String(argument[..<colon])
        var text = Substring(argument[argument.index(after: colon)...])
        let trailingSlash = text.count > 1 && text.hasSuffix("/")
        if trailingSlash { text = text.dropLast() }
        do {
            let path = try RemotePath(String(text))
            return RemoteLocation(remote: name, path: path, namesFolder: trailingSlash || path.isRoot)
        } catch let error as ServiceError {
            throw ValidationError(error.message)
        }
    }

    var description: String { "\(remote):\(path)" }
}
