import Foundation
import Stratus

/// What a Dropbox change token holds: the `list_folder` cursor, whether it covers the root or
/// the whole account, and the server's time when the feed was last read to its end.
///
/// Raw value: `v1:<seconds>:<cursor>` for a cursor of the root, `v1a:<seconds>:<cursor>` for one
/// of the whole account (used while the root folder does not exist yet); `<seconds>` is the
/// server's clock (from the `Date` header) as Unix seconds, or empty when unknown.
struct DropboxChangeCursor: Sendable, Equatable {
    /// Whether the cursor lists the whole account (entries outside the root are dropped).
    var isAccountWide: Bool
    /// The server time the token stands for, if known.
    var issuedAt: Int64?
    /// The Dropbox cursor.
    var cursor: String

    /// The token for this cursor.
    var token: ChangeToken {
        ChangeToken(rawValue: (isAccountWide ? "v1a:" : "v1:") + (issuedAt.map(String.init) ?? "") + ":" + cursor)
    }

    init(isAccountWide: Bool, issuedAt: Int64?, cursor: String) {
        self.isAccountWide = isAccountWide
        self.issuedAt = issuedAt
        self.cursor = cursor
    }

    /// Reads a token.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidChangeToken`` for a token this adapter did
    ///   not issue.
    init(_ token: ChangeToken) throws {
        let parts = token.rawValue.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1" || parts[0] == "v1a", !parts[2].isEmpty,
            parts[1].isEmpty || Int64(parts[1]) != nil
        else {
            throw ServiceError(
                .invalidChangeToken,
                "This change token was not issued by the Dropbox adapter; resync from a full listing.")
        }
        isAccountWide = parts[0] == "v1a"
        issuedAt = Int64(parts[1])
        cursor = String(parts[2])
    }
}
