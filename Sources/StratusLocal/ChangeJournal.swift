import Foundation
import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The local store's change feed: an append-only file of JSON lines.
///
/// The first line is a header naming the journal's random identifier; every later line is one
/// change. Positions are byte offsets at line boundaries. Every method must be called while
/// holding the store lock (`flock(2)` on `.stratus/lock`): that is what keeps appends whole and readers from seeing a change
/// before it is committed. A torn last line (a crash in the middle of an append) is cut off
/// before the journal is read or extended.
struct ChangeJournal: Sendable {
    /// The journal's first line.
    private struct Header: Codable {
        var journal: String
        var format: Int
    }

    /// One change as stored.
    private struct Entry: Codable {
        var change: String
        var path: RemotePath
        var file: RemoteFile?
        var recorded: Date
    }

    private static let newline = UInt8(ascii: "\n")
    private static let longestHeader = 4096

    /// The journal file's path.
    let path: String
    /// The folder new journals are prepared in before being renamed into place.
    let preparationFolder: String

    /// Creates the journal with a new identifier unless it exists.
    /// - Parameter identifier: The new journal's identifier (hexadecimal).
    /// - Throws: ``FileSystemError`` when the file cannot be written.
    func createIfMissing(identifier: String) throws {
        guard try FileSystem.kind(at: path) == nil else { return }
        let header = try Self.line(Header(journal: identifier, format: 1))
        let prepared = try AtomicFile.writeTemporary(header, in: preparationFolder, named: "journal-" + identifier)
        try AtomicFile.rename(prepared, over: path)
    }

    /// The position after the last change.
    /// - Throws: ``FileSystemError`` when the journal cannot be read, ``ServiceError`` when it
    ///   is damaged.
    func end() throws -> JournalPosition {
        let file = try FileDescriptor.open(path, O_RDWR)
        let (identifier, _) = try header(of: file)
        return JournalPosition(journalID: identifier, offset: try repairedLength(of: file))
    }

    /// Appends one change and flushes it to the disk.
    /// - Parameter change: The change.
    /// - Returns: The journal's length before the append, to pass to ``truncate(to:)`` if the
    ///   change has to be taken back.
    /// - Throws: ``FileSystemError`` when the journal cannot be written.
    func append(_ change: Change) throws -> Int64 {
        let entry: Entry
        switch change {
        case .upserted(let file): entry = Entry(change: "upserted", path: file.path, file: file, recorded: Date())
        case .deleted(let path): entry = Entry(change: "deleted", path: path, file: nil, recorded: Date())
        }
        let line = try Self.line(entry)
        let file = try FileDescriptor.open(path, O_RDWR | O_APPEND)
        let length = try repairedLength(of: file)
        do {
            try file.write(line)
            try file.synchronize()
        } catch {
            try? file.truncate(to: length)
            throw error
        }
        return length
    }

    /// Takes back the changes appended after a length.
    /// - Throws: ``FileSystemError`` when the journal cannot be cut.
    func truncate(to length: Int64) throws {
        let file = try FileDescriptor.open(path, O_RDWR)
        try file.truncate(to: length)
        try file.synchronize()
    }

    /// The changes after a position, oldest first.
    /// - Parameters:
    ///   - position: Where to start.
    ///   - limit: The most changes to return.
    /// - Returns: The page; its next token follows the last change returned.
    /// - Throws: ``ServiceError`` (`invalidChangeToken`) when the position is in another journal
    ///   or not at the start of a change, ``FileSystemError`` when the journal cannot be read.
    func changes(after position: JournalPosition, limit: Int) throws -> ChangePage {
        let file = try FileDescriptor.open(path, O_RDWR)
        let (identifier, headerLength) = try header(of: file)
        let end = try repairedLength(of: file)
        guard position.journalID == identifier else {
            throw ServiceError(
                .invalidChangeToken,
                "The change token belongs to a different local store, or to this one before its change journal was replaced. Resync from a full listing and a fresh latestChangeToken()."
            )
        }
        guard position.offset >= headerLength, position.offset <= end,
            try file.byte(at: position.offset - 1) == Self.newline
        else {
            throw ServiceError(
                .invalidChangeToken,
                "The change token points at byte \(position.offset) of a change journal that does not have a change starting there (it may come from a copy of the store that has since diverged). Resync from a full listing and a fresh latestChangeToken()."
            )
        }

        try file.seek(to: position.offset)
        var changes: [Change] = []
        var offset = position.offset
        var pending: [UInt8] = []
        var lineStart = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        while changes.count < limit, offset < end {
            if let newline = pending[lineStart...].firstIndex(of: Self.newline) {
                changes.append(try decode(pending[lineStart..<newline], at: offset))
                offset += Int64(newline + 1 - lineStart)
                lineStart = newline + 1
                continue
            }
            pending.removeFirst(lineStart)
            lineStart = 0
            let count = try file.read(into: buffer)
            if count == 0 { break }
            pending.append(contentsOf: buffer[0..<count])
        }
        return ChangePage(
            changes: changes,
            nextToken: JournalPosition(journalID: identifier, offset: offset).token,
            hasMore: offset < end
        )
    }

    private func header(of file: FileDescriptor) throws -> (identifier: String, length: Int64) {
        try file.seek(to: 0)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.longestHeader, alignment: 16)
        defer { buffer.deallocate() }
        let count = try file.read(into: buffer)
        guard let newline = buffer[0..<count].firstIndex(of: Self.newline),
            let header = try? JSONDecoder().decode(Header.self, from: Data(buffer[0..<newline])),
            !header.journal.isEmpty, header.journal.allSatisfy(\.isHexDigit)
        else {
            throw damaged("its first line is not a journal header")
        }
        return (header.journal, Int64(newline + 1))
    }

    /// The journal's length once a torn last line, if any, is cut off.
    private func repairedLength(of file: FileDescriptor) throws -> Int64 {
        var length = try file.status().size
        guard length > 0, try file.byte(at: length - 1) != Self.newline else { return length }
        while length > 0, try file.byte(at: length - 1) != Self.newline {
            length -= 1
        }
        guard length > 0 else {
            throw damaged("it has no complete line")
        }
        try file.truncate(to: length)
        try file.synchronize()
        return length
    }

    private func decode(_ line: ArraySlice<UInt8>, at offset: Int64) throws -> Change {
        let entry: Entry
        do {
            entry = try JSONDecoder().decode(Entry.self, from: Data(line))
        } catch {
            throw damaged("the change at byte \(offset) cannot be read (\(error))")
        }
        switch (entry.change, entry.file) {
        case ("upserted", let file?): return .upserted(file)
        case ("deleted", _): return .deleted(entry.path)
        default: throw damaged("the change at byte \(offset) has the unknown kind \(entry.change.debugDescription)")
        }
    }

    private func damaged(_ reason: String) -> ServiceError {
        ServiceError(
            .localFile,
            "The change journal \(path) is damaged: \(reason). Move it aside to start a new journal; saved change tokens will then be refused and readers will resync."
        )
    }

    private static func line<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value)) + [newline]
        } catch {
            throw ServiceError(.localFile, "Could not encode a change journal entry: \(error).", underlying: error)
        }
    }
}
