import Foundation
import Stratus
import StratusDigest

/// The position in the emulated change feed that a ``/Stratus/ChangeToken`` carries:
/// `v1:` followed by base64url JSON.
///
/// It holds the newest `LastModified` reported so far (the watermark, in milliseconds) and
/// short digests of the versions within the look-back window before it that were already
/// reported, so versions stamped at or before the watermark but listed late are still reported
/// once. It also names the bucket and root it belongs to, so a token of another remote is
/// refused.
struct S3ChangeCursor: Codable, Sendable, Equatable {
    /// The format version this code writes.
    static let prefix = "v1:"

    /// A digest of the bucket and root.
    var remote: String
    /// The watermark: milliseconds since 1970.
    var watermark: Int64
    /// Digests of the versions already reported within the look-back window.
    var seen: [String]

    private enum CodingKeys: String, CodingKey {
        case remote = "r"
        case watermark = "w"
        case seen = "s"
    }

    /// The token for this position.
    var token: ChangeToken {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return ChangeToken(rawValue: S3ChangeCursor.prefix + Base64URL.encode(data))
    }

    init(remote: String, watermark: Int64, seen: [String]) {
        self.remote = remote
        self.watermark = watermark
        self.seen = seen
    }

    /// Reads a token.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidChangeToken`` for anything that is not a
    ///   token of this remote in a known format.
    init(_ token: ChangeToken, remote: String) throws {
        let refused = ServiceError(
            .invalidChangeToken,
            "The change token was not issued by this S3 remote's change feed (or its format is unknown); list the files again and take a new token."
        )
        guard token.rawValue.hasPrefix(S3ChangeCursor.prefix), token.rawValue.utf8.count < 4 * 1_048_576,
            let bytes = Base64URL.decode(String(token.rawValue.dropFirst(S3ChangeCursor.prefix.count))),
            let cursor = try? JSONDecoder().decode(S3ChangeCursor.self, from: Data(bytes)),
            cursor.remote == remote, cursor.watermark >= 0
        else { throw refused }
        self = cursor
    }

    /// The digest of one version in ``seen``: 8 bytes of SHA-256 over key and version id.
    static func digest(key: String, versionID: String) -> String {
        Hex.encode(Digest.sha256(Data((key + "\u{0}" + versionID).utf8)).prefix(8))
    }
}
