import Dispatch
import Foundation
import Logging
import StratusFileSystem
import Synchronization

/// A mock's metadata saved to one file in its storage folder, so that a mock started again on
/// the same folder finds the namespace it left: the one mechanism the Dropbox and Drive mocks
/// share.
///
/// The mock loads the file once when it starts (``load(_:)``), hands over a way to read its
/// state (``attach(_:)``), and calls ``stateDidChange()`` after every write. That call costs a
/// lock and a flag: the file is written later, on a queue of its own, once per
/// ``saveDelay`` however many writes came in that time, so no request waits for a save. As the
/// state grows, saves are spaced by at least four times the last save's length, so saving takes
/// at most about a fifth of a core (a save of 11,000 files takes about 0.3 s). The
/// snapshot is taken under the mock's lock as a copy of its state (copy-on-write: constant
/// time) and encoded off it. ``flush()`` saves at once and waits; a server calls it when it
/// stops.
///
/// ```swift
/// let state = try PersistentState(directory: folder, kind: "depot", formatVersion: 1)
/// let saved = try state.load(DepotSnapshot.self)          // nil the first time
/// let store = DepotStore(saved) { [weak state] in state?.stateDidChange() }
/// state.attach { DepotSnapshot(store.copyOfState()) }
/// // ... serve; when the server has stopped:
/// try await state.flush()
/// ```
///
/// The file, `<kind>-state.json`, is one header line, `stratus-mock-state <kind> <version>`,
/// then the state as JSON. It is replaced atomically (a temporary file beside it, flushed to
/// disk, renamed over it, the folder flushed), mode 0600 in a folder of mode 0700, so a crash
/// leaves the previous save or the new one, never a mix. What a hard kill (`SIGKILL`, a power
/// cut) loses is what changed since the last save finished: at most the last ``saveDelay`` (or
/// four times the last save's length, when longer) and the save then in progress. A file of another kind, another version or that cannot be
/// decoded is refused with a ``PersistentStateError`` naming it, never overwritten.
///
/// Safe to use from any task: a `Mutex` guards the flags, and saves run one at a time on a
/// serial Dispatch queue.
public final class PersistentState: Sendable {
    /// The state file.
    public let file: URL
    /// The kind of mock whose state the file holds, such as `dropbox`; part of its header.
    public let kind: String
    /// The version of the state's format this mock reads and writes.
    public let formatVersion: Int
    /// How long after a change the state is saved; changes in the meantime join that save.
    public let saveDelay: Duration

    private struct Status: Sendable {
        var source: (@Sendable () throws -> Data)?
        var isDirty = false
        var isScheduled = false
        /// How long the last save took: the next waits at least four times as long.
        var lastSaveLength = Duration.zero
        var saveCount = 0
        var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiterID: UInt64 = 0
    }

    private let status = Mutex(Status())
    private let queue: DispatchQueue
    private let logger: Logger

    /// The header's first word.
    static let magic = "stratus-mock-state"

    /// Prepares the state file `<kind>-state.json` in a folder, creating the folder (mode 0700)
    /// if needed. Nothing is read until ``load(_:)``.
    /// - Parameters:
    ///   - directory: The mock's storage folder.
    ///   - kind: The kind of mock, such as `dropbox`: the file's name and header say it.
    ///   - formatVersion: The version of the state's format.
    ///   - saveDelay: How long after a change the state is saved (200 ms by default).
    ///   - logger: Where a failed background save is reported.
    /// - Throws: An error when the folder cannot be created.
    public init(
        directory: URL, kind: String, formatVersion: Int, saveDelay: Duration = .milliseconds(200),
        logger: Logger = Logger(label: "stratus.mock-state")
    ) throws {
        try BlobStore.makePrivateFolder(directory)
        self.file = directory.appendingPathComponent("\(kind)-state.json")
        self.kind = kind
        self.formatVersion = formatVersion
        self.saveDelay = saveDelay
        self.logger = logger
        self.queue = DispatchQueue(label: "stratus.mock-state.\(kind)", qos: .utility)
    }

    /// Reads the saved state, if there is one. Temporary files a killed save left beside the
    /// file are removed.
    /// - Parameter type: The type the state was saved as.
    /// - Returns: The state, or `nil` when no state file exists.
    /// - Throws: ``PersistentStateError``: `unreadable`, `notAStateFile`, `otherMock`,
    ///   `unsupportedVersion` or `corrupt`.
    public func load<Snapshot: Decodable>(_ type: Snapshot.Type) throws(PersistentStateError) -> Snapshot? {
        removeLeftoverTemporaries()
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw failure(.unreadable, "\(error.localizedDescription)")
        }
        let payload = try checkHeader(data)
        do {
            return try JSONDecoder().decode(Snapshot.self, from: payload)
        } catch let error as DecodingError {
            throw failure(.corrupt, "the state does not decode (\(Self.describe(error)))")
        } catch {
            throw failure(.corrupt, "the state does not decode (\(error))")
        }
    }

    /// Checks that a blob store holds every blob a loaded state names (one listing of the blob
    /// folder, not a call per blob). A missing empty blob is written again.
    /// - Parameters:
    ///   - blobs: The blobs the state's files and revisions hold.
    ///   - store: The blob store in the same storage folder.
    /// - Throws: ``PersistentStateError`` `missingBlobs`, naming how many are missing and a few
    ///   of their SHA-256s.
    public func checkBlobs(_ blobs: some Sequence<BlobInfo>, in store: BlobStore) throws(PersistentStateError) {
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: store.blobsDirectory.path)) ?? [])
        var missing: Set<String> = []
        for blob in blobs where !present.contains(blob.sha256) {
            if blob.size == 0, (try? store.store([])) != nil { continue }
            missing.insert(blob.sha256)
        }
        guard missing.isEmpty else {
            let examples = missing.sorted().prefix(3).joined(separator: ", ")
            throw failure(
                .missingBlobs,
                "it names \(missing.count) file contents that \(store.blobsDirectory.path) does not hold "
                    + "(such as \(examples))")
        }
    }

    /// Gives the way to read the mock's state; saves call it. Until it is given, changes are
    /// noted but nothing is saved.
    /// - Parameter snapshot: Returns the state to save. It runs on the save queue: it should
    ///   copy the state under the mock's lock and build the snapshot outside it.
    public func attach<Snapshot: Encodable & Sendable>(_ snapshot: @escaping @Sendable () -> Snapshot) {
        status.withLock {
            $0.source = { try JSONEncoder().encode(snapshot()) }
        }
    }

    /// Notes that the state changed: a save follows within ``saveDelay``. Cheap enough to call
    /// after every write; never blocks on a save.
    public func stateDidChange() {
        let delay = status.withLock { status -> Duration? in
            status.isDirty = true
            guard !status.isScheduled else { return nil }
            status.isScheduled = true
            return max(saveDelay, status.lastSaveLength * 4)
        }
        guard let delay else { return }
        let (seconds, attoseconds) = delay.components
        let nanoseconds =
            seconds >= Int64(Int.max / 1_000_000_000) - 1
            ? Int.max : max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        // The closure keeps this object alive until the save ran, even when its mock is gone.
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            do {
                try self.saveIfChanged()
            } catch {
                self.logger.error("\(error)")
            }
        }
    }

    /// Saves now if anything changed since the last save, after a save in progress; returns
    /// when the file is written. A server calls it when it stops.
    /// - Throws: ``PersistentStateError`` `unwritable` when the state cannot be encoded or
    ///   written (the changes stay unsaved: a later save tries again).
    public func flush() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(with: Result { try self.saveIfChanged() })
            }
        }
    }

    /// How many saves have been written since this object was made.
    public var saveCount: Int { status.withLock { $0.saveCount } }

    /// Waits until at least `count` saves have been written (by the delayed saves or by
    /// ``flush()``), or the task is cancelled; for tests of the delayed save, which would
    /// otherwise have to sleep.
    /// - Parameter count: The number of saves to wait for.
    public func waitForSaves(_ count: Int) async {
        let id = status.withLock { status in
            status.nextWaiterID += 1
            return status.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = status.withLock { status in
                    // Cancelled before it waits: the handler below found nothing to resume.
                    guard status.saveCount < count, !Task.isCancelled else { return true }
                    status.waiters.append((id, count, continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiter = status.withLock { status in
                status.waiters.firstIndex { $0.id == id }.map { status.waiters.remove(at: $0).continuation }
            }
            waiter?.resume()
        }
    }

    /// Writes the state if it changed since the last save. Runs on the save queue only.
    private func saveIfChanged() throws {
        let source = status.withLock { status -> (@Sendable () throws -> Data)? in
            status.isScheduled = false
            guard status.isDirty, let source = status.source else { return nil }
            status.isDirty = false
            return source
        }
        guard let source else { return }
        let started = ContinuousClock.now
        do {
            try write(try source())
            let length = ContinuousClock.now - started
            status.withLock { $0.lastSaveLength = length }
        } catch {
            // Still to save: the next change or flush tries again.
            status.withLock { $0.isDirty = true }
            if let error = error as? PersistentStateError { throw error }
            throw failure(.unwritable, "\(error)")
        }
        let ready = status.withLock { status in
            status.saveCount += 1
            let count = status.saveCount
            let ready = status.waiters.filter { $0.count <= count }.map(\.continuation)
            status.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Replaces the file with a header and the payload, atomically and durably, mode 0600.
    private func write(_ payload: Data) throws {
        var bytes = Data("\(Self.magic) \(kind) \(formatVersion)\n".utf8)
        bytes.append(payload)
        do {
            try AtomicFile.write(bytes, to: file.path, mode: 0o600, ignoringUmask: true)
        } catch {
            throw failure(.unwritable, error.description)
        }
    }

    /// Checks the header line and returns the bytes after it.
    private func checkHeader(_ data: Data) throws(PersistentStateError) -> Data {
        guard let newline = data.prefix(256).firstIndex(of: UInt8(ascii: "\n")) else {
            throw failure(.notAStateFile, "it does not start with a '\(Self.magic)' header line")
        }
        let words = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard words.count == 3, words[0] == Self.magic, let version = Int(words[2]) else {
            throw failure(.notAStateFile, "it does not start with a '\(Self.magic)' header line")
        }
        guard words[1] == kind else {
            throw failure(.otherMock, "it holds the state of a '\(words[1])' mock, not a '\(kind)' mock")
        }
        guard version == formatVersion else {
            throw failure(
                .unsupportedVersion,
                "it was written in state format version \(version); this mock reads version \(formatVersion)")
        }
        return data[data.index(after: newline)...]
    }

    /// Removes `.<file name>.<random>.tmp` files that a save killed before its rename left.
    private func removeLeftoverTemporaries() {
        let folder = file.deletingLastPathComponent()
        let prefix = "." + file.lastPathComponent + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private func failure(_ code: PersistentStateError.Code, _ detail: String) -> PersistentStateError {
        PersistentStateError(code: code, file: file, detail: detail)
    }

    /// A decoding error in a line: where in the state, and what.
    private static func describe(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        @unknown default:
            return "\(error)"
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
    }
}
