import Stratus

/// The key file of a `crypt` remote: the store's age identity, in an age v1 file encrypted to
/// the passphrase (one scrypt stanza, as `age -p` writes), stored as ``name`` at the root of the
/// wrapped remote. Its plaintext is an age identity file with a format line:
///
/// ```
/// # stratus-crypt key file v1
/// # public key: age1...
/// AGE-SECRET-KEY-1...
/// ```
///
/// so `age -d stratus-crypt-key.age > identity.txt` (asking for the passphrase) gives a file
/// `age -d -i identity.txt` opens every other file with.
enum CryptKeyFile {
    /// The key file's name at the root of the wrapped remote; no encrypted name can take it.
    static let name = "stratus-crypt-key.age"
    /// The largest key file read: a real one is under 400 bytes.
    static let maximumSize = 16 * 1024
    /// The first line of the plaintext; a higher version is refused as a newer format.
    static let formatPrefix = "# stratus-crypt key file v"
    static let formatVersion = 1

    /// Seals an identity under a passphrase.
    static func seal(_ identity: AgeIdentity, passphrase: [UInt8], logN: Int) throws -> [UInt8] {
        var text = Array(
            """
            \(formatPrefix)\(formatVersion)
            # public key: \(identity.recipient)
            \(identity.secretKeyText)

            """.utf8)
        defer { Primitives.wipe(&text) }
        var out: [UInt8] = []
        try AgeStream.encrypt(read: AgeStream.reader(text), write: { out += $0 }) { fileKey in
            [try AgeRecipients.scryptStanza(fileKey: fileKey, passphrase: passphrase, logN: logN)]
        }
        return out
    }

    /// Opens a key file.
    /// - Throws: ``AgeFailure``: ``AgeFailure/wrongPassphrase``, a corrupt or oversized file, a
    ///   newer format, an excessive work factor.
    static func open(_ sealed: [UInt8], passphrase: [UInt8]) throws -> AgeIdentity {
        guard sealed.count <= maximumSize else {
            throw AgeFailure.corrupt("it is \(sealed.count) bytes, more than a key file's \(maximumSize)")
        }
        var text: [UInt8] = []
        defer { Primitives.wipe(&text) }
        try AgeStream.decrypt(read: AgeStream.reader(sealed), write: { text += $0 }) { header in
            try AgeRecipients.fileKey(from: header.stanzas, passphrase: passphrase)
        }
        let lines = text.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        guard let first = lines.first, first.hasPrefix(formatPrefix),
            let version = Int(first.dropFirst(formatPrefix.count))
        else {
            throw AgeFailure.corrupt("it is not a stratus-crypt key file")
        }
        guard version == formatVersion else {
            throw AgeFailure.newerFormat("it is key file version \(version); this build reads version \(formatVersion)")
        }
        guard let line = lines.first(where: { $0.hasPrefix("AGE-SECRET-KEY-1") }),
            let identity = try? AgeIdentity(secretKeyText: line)
        else {
            throw AgeFailure.corrupt("it holds no age identity")
        }
        return identity
    }
}
