import Foundation
import Synchronization

/// The mock's files and change log, in memory, changed only under one lock: each write checks
/// its precondition and the folders in its way and stores the file in the same step, which is
/// what makes the protocol's conditional writes atomic.
final class DepotStore: Sendable {
    /// One entry of the change log.
    enum Change: Sendable {
        case put(DepotFile)
        case delete(DepotPath)
    }

    /// What a write asks to hold first.
    enum Precondition: Sendable, Equatable {
        case none
        case mustNotExist
        case mustMatch(String)
    }

    private struct State {
        var files: [DepotPath: DepotFile] = [:]
        var changes: [Change] = []
        var nextRevision = 1
        var nextFileID = 1
    }

    private let state = Mutex(State())

    /// The file at a path, if one is there.
    func file(at path: DepotPath) -> DepotFile? {
        state.withLock { $0.files[path] }
    }

    /// Stores content at a path.
    /// - Returns: The new file, and whether the path held no file before.
    /// - Throws: ``DepotFailure`` 409 when a folder is at the path or a file above it, 412 when
    ///   the precondition does not hold; nothing changes then.
    func write(
        _ path: DepotPath, sha256: String, size: Int64, precondition: Precondition, now: Date = Date()
    ) throws(DepotFailure) -> (file: DepotFile, created: Bool) {
        try state.withLock { (state) throws(DepotFailure) -> (file: DepotFile, created: Bool) in
            if let blocker = path.ancestors.first(where: { state.files[$0] != nil }) {
                throw .pathConflict("\(blocker.text) is a file, so nothing can be written below it.")
            }
            if state.files.keys.contains(where: { $0.isBelow(path) }) {
                throw .pathConflict("\(path.text) is a folder.")
            }
            let existing = state.files[path]
            switch (precondition, existing) {
            case (.mustNotExist, .some(let file)):
                throw .preconditionFailed("\(path.text) exists (etag \(file.etag)).")
            case (.mustMatch(let etag), nil):
                throw .preconditionFailed("\(path.text) does not exist; expected etag \(etag).")
            case (.mustMatch(let etag), .some(let file)) where file.etag != etag:
                throw .preconditionFailed("\(path.text) is at etag \(file.etag), not \(etag).")
            default:
                break
            }
            let id = existing?.id ?? "file-\(state.nextFileID)"
            if existing == nil { state.nextFileID += 1 }
            let file = DepotFile(
                path: path, id: id, etag: "r\(state.nextRevision)", sha256: sha256, size: size,
                modified: Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
            )
            state.nextRevision += 1
            state.files[path] = file
            state.changes.append(.put(file))
            return (file, existing == nil)
        }
    }

    /// Deletes the file at a path.
    /// - Parameter etag: The version the file must be at, or `nil` for any.
    /// - Throws: ``DepotFailure`` 404 when no file is there, 412 when it is at another version.
    func delete(_ path: DepotPath, etag: String?) throws(DepotFailure) {
        try state.withLock { (state) throws(DepotFailure) in
            guard let file = state.files[path] else { throw .notFound(path) }
            if let etag, file.etag != etag {
                throw .preconditionFailed("\(path.text) is at etag \(file.etag), not \(etag).")
            }
            state.files[path] = nil
            state.changes.append(.delete(path))
        }
    }

    /// A page of the files below a folder, in byte order of their paths.
    /// - Parameters:
    ///   - folder: The folder; the root for every file.
    ///   - after: The last path of the page before, or `nil` for the first page.
    ///   - limit: The most files in the page.
    /// - Returns: The files, and whether more follow.
    /// - Throws: ``DepotFailure`` 404 when no file is below a folder other than the root.
    func list(_ folder: DepotPath, after: DepotPath?, limit: Int) throws(DepotFailure) -> (
        files: [DepotFile], more: Bool
    ) {
        let below = state.withLock { state in
            state.files.values.filter { $0.path.isBelow(folder) }
        }
        if below.isEmpty, folder != .root { throw .notFound(folder) }
        let sorted = below.sorted { $0.path < $1.path }.filter { file in after.map { file.path.isAfter($0) } ?? true }
        return (Array(sorted.prefix(limit)), sorted.count > limit)
    }

    /// The number of changes so far: the cursor of the current end of the log.
    var latestCursor: Int {
        state.withLock { $0.changes.count }
    }

    /// The changes after a cursor, oldest first.
    /// - Returns: The changes, the cursor after them, and whether more follow.
    /// - Throws: ``DepotFailure`` 400 `invalid_cursor` for a cursor past the end of the log.
    func changes(after cursor: Int, limit: Int) throws(DepotFailure) -> (changes: [Change], cursor: Int, more: Bool) {
        try state.withLock { (state) throws(DepotFailure) -> (changes: [Change], cursor: Int, more: Bool) in
            guard (0...state.changes.count).contains(cursor) else {
                throw .badRequest("The cursor \(cursor) was never issued.", code: "invalid_cursor")
            }
            let end = min(state.changes.count, cursor + limit)
            return (Array(state.changes[cursor..<end]), end, end < state.changes.count)
        }
    }
}

extension DepotPath {
    /// Whether this path sorts after another.
    fileprivate func isAfter(_ other: DepotPath) -> Bool { other < self }
}
