import Foundation
import MockSupport
import Synchronization

/// One file or folder of the mock's tree.
struct NextcloudNode: Sendable {
    var isFolder: Bool
    var fileID: Int
    /// The SHA-256 of the content's blob (files).
    var blob: String?
    var size: Int64 = 0
    /// Modification time in Unix seconds (what `X-OC-Mtime` sets, and what names versions).
    var modified: Int64
    var etag: String
    /// Dead properties by `{namespace}name`, as text.
    var deadProperties: [String: String] = [:]
    /// `OC-Checksum` as the client sent it, such as `SHA1:…`.
    var checksum: String?
    /// Older contents, named by their modification time.
    var versions: [NextcloudVersion] = []
}

/// One older content of a file, in the versions collection.
struct NextcloudVersion: Sendable {
    var timestamp: Int64
    var blob: String
    var size: Int64
    var etag: String
}

/// A WebDAV write lock.
struct NextcloudLock: Sendable {
    var token: String
    var expires: Date
}

/// The mock's tree (paths relative to the user's files root, `""` for the root), versions and
/// locks, behind one lock.
final class NextcloudStore: Sendable {
    struct State: Sendable {
        var nodes: [String: NextcloudNode]
        var locks: [String: NextcloudLock] = [:]
        var nextFileID = 100
    }

    private let state: Mutex<State>

    init() {
        state = Mutex(
            State(nodes: [
                "": NextcloudNode(
                    isFolder: true, fileID: 1, modified: Int64(Date().timeIntervalSince1970),
                    etag: NextcloudStore.newETag())
            ]))
    }

    func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try state.withLock { try body(&$0) }
    }

    /// The instance id of the mock's "server", the suffix of every `oc:id` (Nextcloud's are
    /// `oc` and ten random letters and digits).
    static let instanceID = "ocnextcloud1"

    /// A file id as `oc:id` and `OC-FileId` give it: eight digits at least, then the instance id.
    static func ocID(_ fileID: Int) -> String {
        String(format: "%08d", fileID) + instanceID
    }

    /// A new ETag, like Nextcloud's `uniqid()` ones.
    static func newETag() -> String {
        String(format: "%013llx", UInt64.random(in: 0...UInt64(0xf_ffff_ffff_ffff)))
    }
}

extension NextcloudStore.State {
    /// The parent of a path (`""` for a top-level one), or `nil` for the root.
    static func parent(of path: String) -> String? {
        guard !path.isEmpty else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Gives the path and every folder above it a new ETag: Nextcloud's propagation.
    mutating func propagate(from path: String) {
        var current: String? = path
        while let next = current {
            nodes[next]?.etag = NextcloudStore.newETag()
            current = Self.parent(of: next)
        }
    }

    /// The direct children of a folder.
    func children(of folder: String) -> [String] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return nodes.keys.filter { key in
            !key.isEmpty && key.hasPrefix(prefix) && !key.dropFirst(prefix.count).contains("/")
        }.sorted()
    }

    /// The size of a folder: the sum of the files below it, at any depth.
    func size(of folder: String) -> Int64 {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return nodes.reduce(Int64(0)) { sum, entry in
            !entry.value.isFolder && entry.key.hasPrefix(prefix) ? sum + entry.value.size : sum
        }
    }

    /// The path of a file id.
    func path(ofFileID id: Int) -> String? {
        nodes.first { !$0.value.isFolder && $0.value.fileID == id }?.key
    }

    /// Whether a lock held on a path lets a request through: no lock, an expired one, or the
    /// request's `If` header naming its token.
    mutating func permits(_ path: String, ifHeader: String?) -> Bool {
        guard let lock = locks[path] else { return true }
        if lock.expires < Date() {
            locks[path] = nil
            return true
        }
        return ifHeader?.contains(lock.token) ?? false
    }

    mutating func newFileID() -> Int {
        nextFileID += 1
        return nextFileID
    }
}

extension NextcloudStore.State {
    /// Makes received bytes the content of a file (new, or a new version of an existing one
    /// whose old content becomes a version), as a PUT and a chunked upload's final MOVE do.
    /// - Returns: The node written, and whether the file is new.
    mutating func write(
        _ received: BlobInfo, to path: String, modified requested: Int64?, checksum: String?
    ) throws -> (node: NextcloudNode, created: Bool) {
        guard let parent = Self.parent(of: path), nodes[parent]?.isFolder == true else {
            throw NextcloudFailure.conflict("Files cannot be created in non-existent collections")
        }
        if nodes[path]?.isFolder == true { throw NextcloudFailure.conflict("A folder is at \(path)") }
        let now = Int64(Date().timeIntervalSince1970)
        var node: NextcloudNode
        let created: Bool
        if var existing = nodes[path] {
            if let blob = existing.blob {
                existing.versions.removeAll { $0.timestamp == existing.modified }
                existing.versions.append(
                    NextcloudVersion(timestamp: existing.modified, blob: blob, size: existing.size, etag: existing.etag)
                )
            }
            node = existing
            created = false
        } else {
            node = NextcloudNode(isFolder: false, fileID: newFileID(), modified: now, etag: NextcloudStore.newETag())
            created = true
        }
        node.blob = received.sha256
        node.size = received.size
        node.modified = requested ?? now
        node.checksum = checksum
        nodes[path] = node
        propagate(from: path)
        return (nodes[path] ?? node, created)
    }
}
