import Foundation
import Stratus
import Testing

@testable import StratusCrypt

/// The key file: the identity under the passphrase (an age scrypt file), and hostile key files.
@Suite struct CryptKeyFileTests {
    let passphrase = Array("correct horse battery staple".utf8)

    @Test func theIdentityRoundTripsUnderThePassphrase() throws {
        let identity = try AgeIdentity.generate()
        let sealed = try CryptKeyFile.seal(identity, passphrase: passphrase, logN: 10)
        #expect(try CryptKeyFile.open(sealed, passphrase: passphrase) == identity)
        #expect(String(decoding: sealed.prefix(22), as: UTF8.self) == "age-encryption.org/v1\n")
        #expect(!String(decoding: sealed, as: UTF8.self).contains("AGE-SECRET-KEY"))
    }

    @Test func aWrongPassphraseIsTyped() throws {
        let sealed = try CryptKeyFile.seal(try AgeIdentity.generate(), passphrase: passphrase, logN: 10)
        #expect(throws: AgeFailure.wrongPassphrase) { try CryptKeyFile.open(sealed, passphrase: Array("nope".utf8)) }
        let error = AgeFailure.wrongPassphrase.serviceError("the key file")
        #expect(error.code == .unauthorized)
    }

    @Test func hostileKeyFilesAreTyped() throws {
        let sealed = try CryptKeyFile.seal(try AgeIdentity.generate(), passphrase: passphrase, logN: 10)
        var flipped = sealed
        flipped[sealed.count - 3] ^= 1
        #expect(throws: AgeFailure.self) { try CryptKeyFile.open(flipped, passphrase: passphrase) }
        #expect(throws: AgeFailure.corrupt("it is 20000 bytes, more than a key file's 16384")) {
            try CryptKeyFile.open([UInt8](repeating: 65, count: 20000), passphrase: passphrase)
        }
        #expect(throws: AgeFailure.corrupt("it is not an age file")) {
            try CryptKeyFile.open(Array("garbage\n".utf8), passphrase: passphrase)
        }
        // A stanza asking for 2^30 work is refused before any scrypt runs.
        let text = String(decoding: sealed, as: UTF8.self).replacingOccurrences(of: " 10\n", with: " 30\n")
        #expect(throws: AgeFailure.tooMuchWork(30)) { try CryptKeyFile.open(Array(text.utf8), passphrase: passphrase) }
        #expect(AgeFailure.tooMuchWork(30).serviceError("the key file").code == .unsupported)
        // A file encrypted to an identity, not to a passphrase.
        var toIdentity: [UInt8] = []
        let identity = try AgeIdentity.generate()
        try AgeStream.encrypt(read: AgeStream.reader([1]), write: { toIdentity += $0 }) { key in
            [try AgeRecipients.x25519Stanza(fileKey: key, to: identity.publicKey)]
        }
        #expect(throws: AgeFailure.corrupt("it is not encrypted to a passphrase")) {
            try CryptKeyFile.open(toIdentity, passphrase: passphrase)
        }
    }

    @Test func aNewerKeyFileFormatIsUnsupported() throws {
        var sealed: [UInt8] = []
        let text = Array("# stratus-crypt key file v2\nsomething new\n".utf8)
        try AgeStream.encrypt(read: AgeStream.reader(text), write: { sealed += $0 }) { key in
            [try AgeRecipients.scryptStanza(fileKey: key, passphrase: passphrase, logN: 10)]
        }
        #expect(throws: AgeFailure.newerFormat("it is key file version 2; this build reads version 1")) {
            try CryptKeyFile.open(sealed, passphrase: passphrase)
        }
        #expect(AgeFailure.newerFormat("x").serviceError("the key file").code == .unsupported)
        let newerAge = Array("age-encryption.org/v2\n-> future\n\n--- x\n".utf8)
        #expect(throws: AgeFailure.self) { try CryptKeyFile.open(newerAge, passphrase: passphrase) }
    }
}
