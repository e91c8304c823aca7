import StratusDigest
import Testing

@testable import StratusCrypt

/// Known answers from the RFCs for the OpenSSL primitives the shim exposes.
@Suite struct PrimitiveTests {
    static func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex) ?? [] }

    @Test func hkdfMatchesRFC5869TestCase1() throws {
        let okm = try Primitives.hkdf(
            [UInt8](repeating: 0x0b, count: 22), salt: Self.bytes("000102030405060708090a0b0c"),
            info: Self.bytes("f0f1f2f3f4f5f6f7f8f9"), count: 42)
        #expect(
            Hex.encode(okm)
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func scryptMatchesRFC7914() throws {
        // N = 16384, r = 8, p = 1: the first 32 bytes of the RFC's 64.
        let key = try Primitives.scrypt(Array("pleaseletmein".utf8), salt: Array("SodiumChloride".utf8), logN: 14)
        #expect(Hex.encode(key) == "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2")
    }

    @Test func x25519MatchesRFC7748() throws {
        let alice = Self.bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        let bob = Self.bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        let alicePublic = try Primitives.x25519PublicKey(alice)
        let bobPublic = try Primitives.x25519PublicKey(bob)
        #expect(Hex.encode(alicePublic) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(Hex.encode(bobPublic) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = try #require(Primitives.x25519(alice, bobPublic))
        #expect(Primitives.x25519(bob, alicePublic) == shared)
        #expect(Primitives.x25519(alice, [UInt8](repeating: 0, count: 32)) == nil)
    }

    @Test func bech32MatchesBIP173() {
        #expect(Bech32.decode("A12UEL5L")?.prefix == "a")
        #expect(Bech32.decode("a12uel5l")?.data == [])
        #expect(Bech32.decode("abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw")?.prefix == "abcdef")
        #expect(Bech32.decode("a12uel5L") == nil)
        #expect(Bech32.decode("a12uel5m") == nil)
        let data: [UInt8] = [0, 1, 2, 250, 255]
        #expect(Bech32.decode(Bech32.encode(prefix: "age", data))?.data == data)
    }

    @Test func sealedBoxesOpenOnlyUnaltered() throws {
        let key = [UInt8](repeating: 9, count: 32)
        let nonce = AgeStream.chunkNonce(258, last: true)
        #expect(Hex.encode(nonce) == "000000000000000000010201")
        var box = try Primitives.seal(Array("hello".utf8), key: key, nonce: nonce)
        #expect(Primitives.open(box, key: key, nonce: nonce) == Array("hello".utf8))
        #expect(Primitives.open(box, key: key, nonce: AgeStream.chunkNonce(258, last: false)) == nil)
        box[0] ^= 1
        #expect(Primitives.open(box, key: key, nonce: nonce) == nil)
    }
}
