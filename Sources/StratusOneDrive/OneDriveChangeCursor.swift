import Foundation
import Stratus

/// What a OneDrive change token holds: the delta URL to ask next (an `@odata.nextLink` or
/// `@odata.deltaLink`).
///
/// Raw value: `v1:<url>`. The version prefix lets a later adapter change the format and still
/// recognise (or cleanly refuse) tokens saved by this one. The URL is only ever sent to the
/// configured Graph origin.
struct OneDriveChangeCursor: Sendable, Equatable {
    /// The delta link.
    var link: String

    /// The token for this cursor.
    var token: ChangeToken { ChangeToken(rawValue: "v1:" + link) }

    init(link: String) {
        self.link = link
    }

    /// Reads a token.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidChangeToken`` for a token this adapter did
    ///   not issue.
    init(_ token: ChangeToken) throws {
        let raw = token.rawValue
        guard raw.hasPrefix("v1:"), raw.count > 3,
            raw.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw ServiceError(
                .invalidChangeToken,
                "This change token was not issued by the OneDrive adapter; resync from a full listing.")
        }
        link = String(raw.dropFirst(3))
    }
}
