import Foundation
import Stratus
import StratusAdapterKit
import StratusLocal

/// A local service wrapped to break one promise on purpose, so a test can prove the contract
/// suite catches that false claim. With no lies it passes everything through unchanged.
struct LyingService: ForwardingService {
    /// A promise the wrapper breaks.
    enum Lie: Sendable, Hashable {
        /// Still claims `atomic` conditional writes, but behaves as an event-loop server that
        /// checks `If-Match`/`If-None-Match` when a request's head arrives and renames after the
        /// body: requests run one at a time, except that a body larger than a socket buffer
        /// (64 KiB) takes time to arrive (at 256 MiB/s), and other requests run meanwhile. Small
        /// bodies never open the window; bodies of a few MiB do.
        case checksAtHeadWritesAfterBody
        /// Keeps the content but drops the custom metadata of names longer than this many bytes.
        case dropsMetadataOfNamesLongerThan(Int)
        /// Runs transfers and waits for changes in a task of their own, so cancelling the caller
        /// does not stop them.
        case ignoresCancellation
        /// Reports transfer progress only when a transfer ends (0, then everything), so a
        /// cancellation can never land midway where the suite sees it.
        case reportsProgressOnlyAtTheEnd
        /// Folds the feed to the net change of each page (a file created and deleted within
        /// the page is left out) while the capabilities keep the feed kind given.
        case coalescesFeed(claiming: ServiceCapabilities.ChangeFeed)
        /// Sends every upload in one request and refuses anything above this many bytes with
        /// `payloadTooLarge`; the capabilities claim `supportsChunkedUpload` as given.
        case refusesUploadsAbove(Int64, claimingChunkedUpload: Bool)
        /// Waits for changes by polling at this fixed interval while the capabilities declare
        /// the given way of waiting.
        case pollsEvery(Duration, claiming: ChangeWaiting)
        /// Names a deletion in the feed only while this instance remembers the path (from its own
        /// uploads and the feed's upserts), and forgets the path once it has reported it, as a
        /// feed that names removed items from an in-memory index does: a page read again, or
        /// read by a new instance, loses its deletions.
        case forgetsReportedDeletions
    }

    let inner: LocalService
    let lie: Lie?
    /// The service that does the work: ``inner``.
    var base: any Service { inner }
    /// The simulated server's one thread, for ``Lie/checksAtHeadWritesAfterBody``.
    let serverThread = OneRequestAtATime()
    /// The paths this instance remembers, for ``Lie/forgetsReportedDeletions``.
    let knownPaths = KnownPaths()

    var capabilities: ServiceCapabilities {
        var capabilities = inner.capabilities
        switch lie {
        case .coalescesFeed(let kind):
            capabilities.changeFeed = kind
        case .refusesUploadsAbove(let limit, let chunked):
            capabilities.largestSingleUpload = limit
            capabilities.supportsChunkedUpload = chunked
        case .pollsEvery(_, let claimed):
            capabilities.changeWaiting = claimed
        default:
            break
        }
        return capabilities
    }

    func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws -> RemoteFile {
        var options = options
        switch lie {
        case .checksAtHeadWritesAfterBody where options.precondition != .none:
            let precondition = options.precondition
            options.precondition = .none
            return try await receive(source, checking: precondition, at: path) { [options] in
                try await inner.upload(from: source, to: path, options: options)
            }
        case .dropsMetadataOfNamesLongerThan(let limit) where path.name.utf8.count > limit:
            options.metadata = [:]
        case .ignoresCancellation:
            let inner = inner
            let captured = options
            return try await Task.detached { try await inner.upload(from: source, to: path, options: captured) }.value
        case .reportsProgressOnlyAtTheEnd:
            let forward = options.progress
            options.progress = nil
            forward?(TransferProgress(completedBytes: 0, totalBytes: nil))
            let file = try await inner.upload(from: source, to: path, options: options)
            forward?(TransferProgress(completedBytes: file.size, totalBytes: file.size))
            return file
        case .refusesUploadsAbove(let limit, _):
            if try Self.size(of: source) > limit {
                throw ServiceError(.payloadTooLarge, "This service takes uploads of at most \(limit) bytes.")
            }
        default:
            break
        }
        let file = try await inner.upload(from: source, to: path, options: options)
        if case .forgetsReportedDeletions = lie { knownPaths.insert(path) }
        return file
    }

    func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions) async throws
        -> RemoteFile
    {
        switch lie {
        case .ignoresCancellation:
            let inner = inner
            return try await Task.detached {
                try await inner.download(path, version: version, to: destination, options: options)
            }.value
        case .reportsProgressOnlyAtTheEnd:
            options.progress?(TransferProgress(completedBytes: 0, totalBytes: nil))
            let file = try await inner.download(path, version: version, to: destination, options: DownloadOptions())
            options.progress?(TransferProgress(completedBytes: file.size, totalBytes: file.size))
            return file
        default:
            return try await inner.download(path, version: version, to: destination, options: options)
        }
    }

    func changes(since token: ChangeToken) async throws -> ChangePage {
        let page = try await inner.changes(since: token)
        if case .forgetsReportedDeletions = lie {
            let changes = page.changes.filter { change in
                switch change {
                case .upserted(let file):
                    knownPaths.insert(file.path)
                    return true
                case .deleted(let path):
                    return knownPaths.remove(path)
                }
            }
            return ChangePage(changes: changes, nextToken: page.nextToken, hasMore: page.hasMore)
        }
        guard case .coalescesFeed = lie else { return page }
        var kept: [Change] = []
        for change in page.changes {
            let earlier = kept.firstIndex { $0.path == change.path }
            if let earlier {
                kept.remove(at: earlier)
                // Uploaded and deleted within the page: as if nothing happened.
                if change == .deleted(change.path) { continue }
            }
            kept.append(change)
        }
        return ChangePage(changes: kept, nextToken: page.nextToken, hasMore: page.hasMore)
    }

    func waitForChanges(after token: ChangeToken, timeout: Duration) async throws -> ChangeWaitOutcome {
        switch lie {
        case .ignoresCancellation:
            let inner = inner
            return try await Task.detached { try await inner.waitForChanges(after: token, timeout: timeout) }.value
        case .pollsEvery(let interval, _):
            return try await pollForChanges(
                after: token, timeout: timeout,
                schedule: PollingSchedule(minimum: interval, maximum: interval, growth: 1, jitter: 0))
        default:
            return try await inner.waitForChanges(after: token, timeout: timeout)
        }
    }

    /// One request on the simulated event-loop server: the check when the head arrives, the
    /// body's arrival (the only time other requests run), the write.
    private func receive(
        _ source: UploadSource, checking precondition: WritePrecondition, at path: RemotePath,
        write: () async throws -> RemoteFile
    ) async throws -> RemoteFile {
        let size = try Self.size(of: source)
        await serverThread.take()
        defer { serverThread.give() }
        try await checkPrecondition(precondition, at: path)
        if size > 65_536 {
            serverThread.give()
            try? await Task.sleep(for: .nanoseconds(size * 4))
            await serverThread.take()
        }
        return try await write()
    }

    /// The lying check: a look at the current state, apart from the write that follows.
    private func checkPrecondition(_ precondition: WritePrecondition, at path: RemotePath) async throws {
        try precondition.check(current: try await inner.metadataIfPresent(of: path)?.version, at: path)
    }

    /// The size of an upload's content.
    private static func size(of source: UploadSource) throws -> Int64 {
        switch source {
        case .bytes(let data):
            return Int64(data.count)
        case .file(let url):
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            return (attributes[.size] as? NSNumber)?.int64Value ?? 0
        }
    }
}
