import Foundation
import MockSupport
import Synchronization

/// One chunk of an upload folder: a scratch file of the blob store.
struct NextcloudChunk: Sendable {
    var file: URL
    var size: Int64
    var etag: String
    var modified: Int64
}

/// One upload folder under `/remote.php/dav/uploads/USER/`: the chunks received so far.
struct NextcloudTransfer: Sendable {
    /// The target (relative to the files root) that the `MKCOL` named in its `Destination`
    /// header; `nil` for a folder made without one (chunking v1, "NG": any chunk names).
    var destination: String?
    var fileID: Int
    var created: Date
    var lastActivity: Date
    var etag: String
    /// Chunks by name.
    var chunks: [String: NextcloudChunk] = [:]
    /// Set while the final `MOVE` assembles the chunks: nothing else may change them.
    var assembling = false

    /// Whether it follows chunking v2's rules (numbered chunks, `Destination` on every request).
    var isVersion2: Bool { destination != nil }

    /// The chunks in the order they are assembled: by name, numbers compared as numbers
    /// (Nextcloud sorts them with a natural order, which is why both `2` and `00002` work).
    var orderedChunks: [(name: String, chunk: NextcloudChunk)] {
        chunks.sorted { Self.naturalOrder($0.key, $1.key) }.map { (name: $0.key, chunk: $0.value) }
    }

    /// The sum of the chunks' sizes.
    var totalSize: Int64 { chunks.values.reduce(0) { $0 + $1.size } }

    static func naturalOrder(_ left: String, _ right: String) -> Bool {
        left.compare(right, options: [.numeric]) == .orderedAscending
    }
}

/// The upload folders of the user, behind one lock, and the files their chunks are in.
///
/// A folder untouched for longer than `expiry` is removed (its chunk files too) the next time
/// any upload folder is used, as Nextcloud's background job removes upload folders after
/// 24 hours of inactivity.
final class NextcloudUploads: Sendable {
    private let transfers = Mutex<[String: NextcloudTransfer]>([:])
    let expiry: Duration

    init(expiry: Duration) {
        self.expiry = expiry
    }

    /// Runs `body` on the upload folders after removing the expired ones.
    func withTransfers<Result>(_ body: (inout [String: NextcloudTransfer]) throws -> Result) rethrows -> Result {
        let (result, expired) = try transfers.withLock { transfers -> (Result, [NextcloudTransfer]) in
            let limit = Date().addingTimeInterval(-Self.seconds(expiry))
            let stale = transfers.filter { !$0.value.assembling && $0.value.lastActivity < limit }
            for key in stale.keys { transfers[key] = nil }
            return (try body(&transfers), Array(stale.values))
        }
        for transfer in expired { Self.removeFiles(of: transfer) }
        return result
    }

    /// Deletes the chunk files of a transfer that is no longer listed.
    static func removeFiles(of transfer: NextcloudTransfer) {
        for chunk in transfer.chunks.values { try? FileManager.default.removeItem(at: chunk.file) }
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
