import Stratus

/// A position in a local store's change journal, and its encoding as a ``ChangeToken``.
///
/// A token reads `local.<journal id>.<byte offset>`. The journal id is random and written in
/// the journal's first line, so a token from another root, or from this root before its journal
/// was replaced, is recognized and refused instead of being read at a meaningless offset.
struct JournalPosition: Hashable, Sendable {
    private static let prefix = "local"

    /// The identifier of the journal the position is in.
    var journalID: String
    /// The byte offset of the first entry not yet reported.
    var offset: Int64

    /// A position.
    init(journalID: String, offset: Int64) {
        self.journalID = journalID
        self.offset = offset
    }

    /// Decodes a token.
    /// - Throws: ``ServiceError`` (`invalidChangeToken`) when the token is not one the local
    ///   backend issues.
    init(token: ChangeToken) throws {
        let parts = token.rawValue.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.prefix, !parts[1].isEmpty,
            parts[1].allSatisfy(\.isHexDigit), let offset = Int64(parts[2]), offset >= 0
        else {
            throw ServiceError(
                .invalidChangeToken,
                "The change token \(String(token.rawValue.prefix(80)).debugDescription) was not issued by a local Stratus store. Resync from a full listing and a fresh latestChangeToken()."
            )
        }
        self.journalID = String(parts[1])
        self.offset = offset
    }

    /// The position as an opaque token.
    var token: ChangeToken {
        ChangeToken(rawValue: "\(Self.prefix).\(journalID).\(offset)")
    }
}
