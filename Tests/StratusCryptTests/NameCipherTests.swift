import Stratus
import Testing

@testable import StratusCrypt

/// AES-SIV names: deterministic, reversible only with the identity, within the stated length.
@Suite struct NameCipherTests {
    @Test func namesAreDeterministicAndReversible() throws {
        let cipher = try NameCipher(identity: AgeIdentity.generate())
        for name in ["a", "slot-1.sav", "Ünïcødé 名前 🎮", String(repeating: "x", count: 143)] {
            let stored = try cipher.encrypt(name)
            #expect(try cipher.encrypt(name) == stored)
            #expect(cipher.decrypt(stored) == name)
            #expect(stored.utf8.count == NameCipher.storedLength(ofPlain: name.utf8.count))
            #expect(stored.allSatisfy { $0.isLowercase || ("2"..."7").contains($0) })
        }
        #expect(try cipher.encrypt("a") != cipher.encrypt("b"))
        #expect(try cipher.encrypt("A") != cipher.encrypt("a"))
    }

    @Test func theLengthOverheadIsAsDocumented() {
        #expect(NameCipher.storedLength(ofPlain: 143) == 255)
        #expect(NameCipher.storedLength(ofPlain: 144) == 256)
        #expect(NameCipher.longestPlainName(storedLimit: 255) == 143)
        #expect(NameCipher.storedLength(ofPlain: 1) == 28)
    }

    @Test func foreignOrAlteredNamesDoNotDecrypt() throws {
        let cipher = try NameCipher(identity: AgeIdentity.generate())
        let other = try NameCipher(identity: AgeIdentity.generate())
        let stored = try cipher.encrypt("slot-1.sav")
        #expect(other.decrypt(stored) == nil)
        var altered = Array(stored)
        altered[5] = altered[5] == "a" ? "b" : "a"
        #expect(cipher.decrypt(String(altered)) == nil)
        #expect(cipher.decrypt("stratus-crypt-key.age") == nil)
        #expect(cipher.decrypt("") == nil)
        #expect(cipher.decrypt(String(stored.dropLast())) == nil)
    }

    @Test func base32IsCanonical() {
        for count in 0..<12 {
            let bytes = (0..<count).map { UInt8($0 * 37 & 0xff) }
            #expect(Base32.decode(Base32.encode(bytes)) == bytes)
        }
        #expect(Base32.encode(Array("foobar".utf8)) == "mzxw6ytboi")
        #expect(Base32.decode("mzxw6ytboj") == nil)
    }
}
