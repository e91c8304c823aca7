/// The two kinds of age stanza Stratus writes and reads: X25519 (files, to the store's
/// identity) and scrypt (the key file, to the passphrase).
enum AgeRecipients {
    /// The scrypt work factor Stratus writes for a key file (age's own default).
    static let defaultLogN = 18
    /// The highest scrypt work factor a key file may ask for (age refuses more by default, too).
    static let maximumLogN = 22
    private static let zeroNonce = [UInt8](repeating: 0, count: 12)
    private static let x25519Label = "age-encryption.org/v1/X25519"
    private static let scryptLabel = Array("age-encryption.org/v1/scrypt".utf8)

    /// Wraps a file key to an X25519 public key.
    static func x25519Stanza(fileKey: [UInt8], to recipient: [UInt8]) throws -> AgeStanza {
        var ephemeral = try Primitives.random(32)
        defer { Primitives.wipe(&ephemeral) }
        let share = try Primitives.x25519PublicKey(ephemeral)
        guard var shared = Primitives.x25519(ephemeral, recipient) else {
            throw AgeFailure.corrupt("the recipient is not a valid X25519 key")
        }
        defer { Primitives.wipe(&shared) }
        var wrapKey = try Primitives.hkdf(shared, salt: share + recipient, info: x25519Label)
        defer { Primitives.wipe(&wrapKey) }
        let body = try Primitives.seal(fileKey, key: wrapKey, nonce: zeroNonce)
        return AgeStanza(type: "X25519", arguments: [Base64Raw.encode(share)], body: body)
    }

    /// Unwraps the file key from the X25519 stanzas of a header, or `nil` when none is for
    /// this identity.
    static func fileKey(from stanzas: [AgeStanza], identity: AgeIdentity) throws -> [UInt8]? {
        for stanza in stanzas where stanza.type == "X25519" {
            guard stanza.arguments.count == 1, let share = Base64Raw.decode(stanza.arguments[0]), share.count == 32,
                stanza.body.count == 32
            else {
                throw AgeFailure.corrupt("an X25519 stanza is malformed")
            }
            guard var shared = Primitives.x25519(identity.secret, share) else {
                throw AgeFailure.corrupt("an X25519 stanza holds an invalid share")
            }
            defer { Primitives.wipe(&shared) }
            var wrapKey = try Primitives.hkdf(shared, salt: share + identity.publicKey, info: x25519Label)
            defer { Primitives.wipe(&wrapKey) }
            if let fileKey = Primitives.open(stanza.body, key: wrapKey, nonce: zeroNonce), fileKey.count == 16 {
                return fileKey
            }
        }
        if stanzas.contains(where: { $0.type == "scrypt" }) {
            throw AgeFailure.corrupt("it is encrypted to a passphrase, not to an identity")
        }
        return nil
    }

    /// Wraps a file key to a passphrase (an scrypt stanza, the only one its header may hold).
    static func scryptStanza(fileKey: [UInt8], passphrase: [UInt8], logN: Int) throws -> AgeStanza {
        let salt = try Primitives.random(16)
        var wrapKey = try Primitives.scrypt(passphrase, salt: scryptLabel + salt, logN: logN)
        defer { Primitives.wipe(&wrapKey) }
        let body = try Primitives.seal(fileKey, key: wrapKey, nonce: zeroNonce)
        return AgeStanza(type: "scrypt", arguments: [Base64Raw.encode(salt), String(logN)], body: body)
    }

    /// Unwraps the file key of a passphrase-encrypted header.
    /// - Throws: ``AgeFailure``: no single scrypt stanza, a work factor above ``maximumLogN``,
    ///   or ``AgeFailure/wrongPassphrase``.
    static func fileKey(from stanzas: [AgeStanza], passphrase: [UInt8]) throws -> [UInt8] {
        guard stanzas.count == 1, let stanza = stanzas.first else {
            if stanzas.contains(where: { $0.type == "scrypt" }) {
                throw AgeFailure.corrupt("an scrypt stanza is not the only stanza")
            }
            throw AgeFailure.corrupt("it is not encrypted to a passphrase")
        }
        guard stanza.type == "scrypt" else { throw AgeFailure.corrupt("it is not encrypted to a passphrase") }
        guard stanza.arguments.count == 2, let salt = Base64Raw.decode(stanza.arguments[0]), salt.count == 16,
            let logN = Int(stanza.arguments[1]), String(logN) == stanza.arguments[1], logN > 0,
            stanza.body.count == 32
        else {
            throw AgeFailure.corrupt("its scrypt stanza is malformed")
        }
        guard logN <= maximumLogN else { throw AgeFailure.tooMuchWork(logN) }
        var wrapKey = try Primitives.scrypt(passphrase, salt: scryptLabel + salt, logN: logN)
        defer { Primitives.wipe(&wrapKey) }
        guard let fileKey = Primitives.open(stanza.body, key: wrapKey, nonce: zeroNonce), fileKey.count == 16 else {
            throw AgeFailure.wrongPassphrase
        }
        return fileKey
    }
}
