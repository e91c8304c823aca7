import GRDB

/// The `recordChange` table: the changes to records each committed transaction made, in order,
/// for ``SyncStore/changes()``. Rows are kept until every open sequence has read them.
extension Database {
    /// Adds changes to the journal, in order, and removes the rows every open sequence has read.
    /// - Parameters:
    ///   - changes: The changes the transaction makes.
    ///   - readPosition: The position up to which every open sequence has read, or `nil` when
    ///     none is open; rows added by this transaction are never removed by it, so a sequence
    ///     opened while it runs still finds them.
    func journal(_ changes: [RecordChange], readPosition: Int64?) throws {
        let before = try lastChangeSequence()
        for change in changes {
            try execute(
                sql: "INSERT INTO recordChange (type, id, kind, origin) VALUES (?, ?, ?, ?)",
                arguments: [change.key.type, change.key.id, change.kind.rawValue, change.origin.rawValue])
        }
        let floor = min(readPosition ?? before, before)
        try execute(sql: "DELETE FROM recordChange WHERE sequence <= ?", arguments: [floor])
    }

    /// The position of the newest change ever journaled (0 before the first).
    func lastChangeSequence() throws -> Int64 {
        try Int64.fetchOne(self, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'recordChange'") ?? 0
    }

    /// The journaled changes after a position, oldest first, with the position of the last.
    func changes(after position: Int64, limit: Int) throws -> (changes: [RecordChange], last: Int64) {
        var last = position
        var changes: [RecordChange] = []
        let rows = try Row.fetchAll(
            self,
            sql:
                "SELECT sequence, type, id, kind, origin FROM recordChange WHERE sequence > ? ORDER BY sequence LIMIT ?",
            arguments: [position, limit])
        for row in rows {
            last = row["sequence"]
            guard let key = try? RecordKey(type: row["type"], id: row["id"]),
                let kind = RecordChange.Kind(rawValue: row["kind"]),
                let origin = RecordChange.Origin(rawValue: row["origin"])
            else { continue }
            changes.append(RecordChange(key: key, kind: kind, origin: origin))
        }
        return (changes, last)
    }
}
