import Stratus
import StratusDigest

/// Where the local store keeps things under its root folder.
///
/// ```
/// root/
///   saves/slot-1.json            the current content of each file, at its own path
///   .stratus/
///     lock                       flock(2) target: every change holds it exclusively
///     changes.jsonl              the change journal: a header line, then one line per change
///     records/<key>.json         per file: version list, custom metadata, stable id
///     versions/<key>/<number>    the content of every kept version
///     staging/                   content being received, before it is committed
/// ```
///
/// A file's key is the SHA-256 of its path's UTF-8 bytes, so any valid name, however long or
/// exotic, maps to a short, safe file name in the state folder.
struct StoreLayout: Sendable {
    /// The name of the hidden state folder at the top of the root.
    static let stateFolderName = ".stratus"
    /// The name of the change journal in the state folder.
    static let journalFileName = "changes.jsonl"

    /// The root folder's path, without a trailing slash.
    let root: String

    /// The hidden state folder.
    var state: String { root + "/" + Self.stateFolderName }
    /// The file every change locks.
    var lock: String { state + "/lock" }
    /// The change journal.
    var journal: String { state + "/" + Self.journalFileName }
    /// The folder of per-file records.
    var records: String { state + "/records" }
    /// The folder of version contents.
    var versions: String { state + "/versions" }
    /// The folder where incoming content is written before it is committed.
    var staging: String { state + "/staging" }

    /// The folders that must exist for the store to work, outermost first.
    var stateFolders: [String] { [state, records, versions, staging] }

    /// The short, file-system-safe key of a path.
    func key(for path: RemotePath) -> String {
        Hex.encode(Digest.sha256(Array(path.string.utf8)))
    }

    /// The record file of a path.
    func record(for key: String) -> String {
        records + "/" + key + ".json"
    }

    /// The folder holding the versions of a path.
    func versionFolder(for key: String) -> String {
        versions + "/" + key
    }

    /// The content of one version of a path.
    func version(_ number: Int64, for key: String) -> String {
        versionFolder(for: key) + "/" + String(number)
    }

    /// Where a path's current content is visible under the root.
    func visible(_ path: RemotePath) -> String {
        path.isRoot ? root : root + "/" + path.string
    }
}
