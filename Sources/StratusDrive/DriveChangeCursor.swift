import Foundation
import Stratus

/// What a Drive change token holds: the `changes.list` page token, and the server's time when
/// the feed was last read to its end.
///
/// Raw value: `v1:<seconds>:<pageToken>`; `<seconds>` is the server's clock (from the `Date`
/// header) as Unix seconds, or empty when unknown. The version prefix lets a later adapter
/// change the format and still recognise (or cleanly refuse) tokens saved by this one.
struct DriveChangeCursor: Sendable, Equatable {
    /// The server time the token stands for, if known.
    var issuedAt: Int64?
    /// Drive's page token (a `startPageToken`, `nextPageToken` or `newStartPageToken`).
    var pageToken: String

    /// The token for this cursor.
    var token: ChangeToken { ChangeToken(rawValue: "v1:" + (issuedAt.map(String.init) ?? "") + ":" + pageToken) }

    init(issuedAt: Int64?, pageToken: String) {
        self.issuedAt = issuedAt
        self.pageToken = pageToken
    }

    /// Reads a token.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidChangeToken`` for a token this adapter did
    ///   not issue.
    init(_ token: ChangeToken) throws {
        let parts = token.rawValue.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", parts[1].isEmpty || Int64(parts[1]) != nil, !parts[2].isEmpty,
            parts[2].unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw ServiceError(
                .invalidChangeToken,
                "This change token was not issued by the Drive adapter; resync from a full listing.")
        }
        issuedAt = Int64(parts[1])
        pageToken = String(parts[2])
    }
}
