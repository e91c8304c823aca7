import GRDB

extension Database {
    /// A setting's value, or `nil` when it is not set.
    func setting(_ name: String) throws -> String? {
        try String.fetchOne(self, sql: "SELECT value FROM setting WHERE name = ?", arguments: [name])
    }

    /// Sets a setting, or removes it for `nil`.
    func setSetting(_ name: String, _ value: String?) throws {
        if let value {
            try execute(sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?)", arguments: [name, value])
        } else {
            try execute(sql: "DELETE FROM setting WHERE name = ?", arguments: [name])
        }
    }
}
