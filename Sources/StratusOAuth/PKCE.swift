import Stratus
import StratusDigest
import StratusHTTP

/// Proof Key for Code Exchange (RFC 7636): a random verifier kept by the app, and its S256
/// challenge sent with the authorization request, so an intercepted authorization code is
/// useless without the verifier.
public struct PKCE: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The secret verifier: 43 characters of base64url (32 random bytes). Sent only with the
    /// code exchange.
    public let verifier: String

    /// Creates the pair from a given verifier (for tests and known vectors).
    /// - Parameter verifier: 43 to 128 characters of `[A-Za-z0-9-._~]`.
    public init(verifier: String) {
        self.verifier = verifier
    }

    /// Creates a pair with a fresh random verifier.
    /// - Throws: ``/Stratus/ServiceError`` when the system cannot supply random bytes.
    public static func random() throws -> PKCE {
        PKCE(verifier: try RandomToken.make())
    }

    /// The S256 challenge: base64url(SHA-256(verifier)) without padding.
    public var challenge: String {
        Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
    }

    /// Always `S256`; the `plain` method gives no protection and is never used.
    public var challengeMethod: String { "S256" }

    /// The challenge only; the verifier is redacted.
    public var description: String {
        "PKCE(challenge: \(challenge), verifier: \(Redaction.placeholder))"
    }

    /// A mirror without the verifier, so `dump` is safe to log.
    public var customMirror: Mirror {
        Mirror(self, children: ["challenge": challenge, "verifier": Redaction.placeholder])
    }
}

/// Unguessable values for `state` and PKCE verifiers.
enum RandomToken {
    /// 32 random bytes as 43 characters of base64url.
    static func make() throws -> String {
        do {
            return Base64URL.encode(try SecureRandom.bytes(count: 32))
        } catch {
            throw ServiceError(.localFile, "The system could not supply random bytes for sign-in.", underlying: error)
        }
    }
}
