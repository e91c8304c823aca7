import Foundation
public import Stratus

/// An age X25519 identity: the private key that opens the files of a `crypt` remote.
///
/// Its text form is the `AGE-SECRET-KEY-1...` line the `age` tool reads with `-i`; its
/// ``recipient`` (`age1...`) is what `age -r` encrypts to. The identity never appears in
/// descriptions, dumps or errors: only ``secretKeyText`` reveals it.
///
/// ```swift
/// let identity = try AgeIdentity.generate()
/// print(identity.recipient)   // age1...
/// ```
public struct AgeIdentity: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The X25519 private scalar.
    let secret: [UInt8]
    /// The X25519 public key.
    let publicKey: [UInt8]

    init(secret: [UInt8]) throws {
        guard secret.count == 32 else {
            throw ServiceError(.integrityMismatch, "An age identity holds 32 bytes; this one holds \(secret.count).")
        }
        self.secret = secret
        self.publicKey = try Primitives.x25519PublicKey(secret)
    }

    /// Makes a new identity from OpenSSL's random generator.
    /// - Returns: The identity.
    /// - Throws: ``/Stratus/ServiceError/Code/internalError`` when OpenSSL fails.
    public static func generate() throws -> AgeIdentity {
        try AgeIdentity(secret: Primitives.random(32))
    }

    /// Reads an `AGE-SECRET-KEY-1...` line.
    /// - Parameter text: The line (surrounding white space is ignored).
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when it is not an age
    ///   X25519 identity; the message never quotes it.
    public init(secretKeyText text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.uppercased() == trimmed, let (prefix, data) = Bech32.decode(trimmed),
            prefix == "age-secret-key-", data.count == 32
        else {
            throw ServiceError(.invalidConfiguration, "The text is not an age identity (AGE-SECRET-KEY-1...).")
        }
        try self.init(secret: data)
    }

    /// The identity as the `age` tool reads it: `AGE-SECRET-KEY-1...`, upper case.
    public var secretKeyText: String {
        Bech32.encode(prefix: "age-secret-key-", secret).uppercased()
    }

    /// The public recipient, `age1...`: what `age -r` encrypts to.
    public var recipient: String {
        Bech32.encode(prefix: "age", publicKey)
    }

    /// Reads an `age1...` recipient into its X25519 public key.
    static func publicKey(ofRecipient recipient: String) throws -> [UInt8] {
        guard let (prefix, data) = Bech32.decode(recipient), prefix == "age", data.count == 32,
            recipient.lowercased() == recipient
        else {
            throw ServiceError(.invalidConfiguration, "\(recipient.debugDescription) is not an age X25519 recipient.")
        }
        return data
    }

    /// The recipient only: the secret is never shown.
    public var description: String { "AgeIdentity(recipient: \(recipient))" }

    /// A mirror without the secret, so `dump` does not print it.
    public var customMirror: Mirror { Mirror(self, children: ["recipient": recipient]) }
}
