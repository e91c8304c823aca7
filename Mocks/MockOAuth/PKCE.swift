import MockSupport
import StratusDigest

/// Proof Key for Code Exchange (RFC 7636) as the server checks it.
enum PKCE {
    /// The only challenge method the mock accepts.
    static let method = "S256"

    /// The S256 challenge of a verifier: base64url(SHA-256(verifier)) without padding.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
    }

    /// Whether text may be a verifier or challenge: 43 to 128 characters of
    /// `A-Z a-z 0-9 - . _ ~`.
    static func isWellFormed(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count) && text.utf8.allSatisfy(PercentEncoding.isUnreserved)
    }
}
