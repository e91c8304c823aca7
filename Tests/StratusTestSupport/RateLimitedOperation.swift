import Foundation
import Stratus

/// An operation of a service that needs one request route of its provider, for checking what a
/// persistent rate limit on that route costs (see ``RateLimitedRoute``).
public enum RateLimitedOperation: Sendable, Hashable, CustomStringConvertible {
    /// Uploads a few bytes to `small.txt`: a single upload.
    case smallUpload
    /// Uploads `bytes` bytes to `large.bin`, more than a single upload takes: a session.
    case largeUpload(bytes: Int)
    /// Downloads `read.txt`, uploaded first, into an empty folder.
    case download
    /// Deletes `doomed.txt`, uploaded first.
    case delete
    /// Reads the metadata of the file named `name` once `read.txt` is uploaded.
    case metadata(of: String)
    /// Lists the root folder once `listed.txt` is uploaded.
    case listing
    /// Reads the change feed since the latest token.
    case changeFeed

    /// The operation, in a few words.
    public var description: String {
        switch self {
        case .smallUpload: "a small upload"
        case .largeUpload(let bytes): "an upload of \(bytes) bytes"
        case .download: "a download"
        case .delete: "a delete"
        case .metadata(let name): "the metadata of \(name)"
        case .listing: "a listing"
        case .changeFeed: "the change feed"
        }
    }

    /// Does what the operation needs done before its route is refused (uploads the file it
    /// reads or deletes, reads the latest change token), and returns the operation itself.
    /// - Parameters:
    ///   - service: The service.
    ///   - folder: An empty folder a download writes into.
    /// - Returns: The operation, to run once the route is refused.
    func prepared(on service: any Service, downloadingInto folder: URL) async throws
        -> @Sendable () async throws -> Void
    {
        switch self {
        case .smallUpload:
            let path = try RemotePath("small.txt")
            return { _ = try await service.upload(from: .bytes(Data("small".utf8)), to: path) }
        case .largeUpload(let bytes):
            let path = try RemotePath("large.bin")
            let content = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
            return { _ = try await service.upload(from: .bytes(content), to: path) }
        case .download:
            let path = try RemotePath("read.txt")
            _ = try await service.upload(from: .bytes(Data("read me".utf8)), to: path)
            let destination = folder.appending(path: "read.txt")
            return { _ = try await service.download(path, to: destination) }
        case .delete:
            let path = try RemotePath("doomed.txt")
            _ = try await service.upload(from: .bytes(Data("bye".utf8)), to: path)
            return { try await service.delete(path) }
        case .metadata(let name):
            _ = try await service.upload(from: .bytes(Data("read me".utf8)), to: RemotePath("read.txt"))
            let path = try RemotePath(name)
            return { _ = try await service.metadata(of: path) }
        case .listing:
            _ = try await service.upload(from: .bytes(Data("listed".utf8)), to: RemotePath("listed.txt"))
            return { _ = try await service.list(.root) }
        case .changeFeed:
            let token = try await service.latestChangeToken()
            return { _ = try await service.changes(since: token) }
        }
    }
}
