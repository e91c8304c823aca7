import Foundation
import StratusDigest
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648 §10 test vectors without padding (the URL alphabet only differs for "+" and "/").
    static let rfc4648Vectors: [(text: String, encoded: String)] = [
        ("", ""),
        ("f", "Zg"),
        ("fo", "Zm8"),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test("RFC 4648 vectors encode without padding and decode back")
    func rfc4648Vectors() {
        for (text, encoded) in Self.rfc4648Vectors {
            #expect(Base64URL.encode(Array(text.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(text.utf8))
        }
    }

    @Test("Padded input is accepted")
    func paddedInput() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
        #expect(Base64URL.decode("Zm9vYg==") == Array("foob".utf8))
        #expect(Base64URL.decode("Zm9vYmE=") == Array("fooba".utf8))
    }

    /// python3 -c "import base64; print(base64.urlsafe_b64encode(bytes([0xfb, 0xff])), base64.urlsafe_b64encode(bytes([0xfb, 0xef, 0xbe, 0xff, 0xff, 0xff])))"
    @Test("Bytes that need '-' and '_' use the URL alphabet")
    func urlAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF] as [UInt8]) == "-_8")
        #expect(Base64URL.encode([0xFB, 0xEF, 0xBE, 0xFF, 0xFF, 0xFF] as [UInt8]) == "----____")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("-_8=") == [0xFB, 0xFF])
        #expect(Base64URL.decode("----____") == [0xFB, 0xEF, 0xBE, 0xFF, 0xFF, 0xFF])
    }

    @Test("Round trips agree with Foundation's Base64", arguments: 0...67)
    func roundTrip(length: Int) throws {
        for bytes in [Array(TestInput.pattern(count: length)), try SecureRandom.bytes(count: length)] {
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation)
            #expect(Base64URL.decode(encoded) == bytes)
        }
    }

    @Test(
        "Invalid input decodes to nil",
        arguments: [
            "Z",  // a length of 1 mod 4 cannot occur
            "Zm9vY",  // likewise
            "Zg=",  // incomplete padding
            "Zg===",  // too much padding
            "====",  // padding only
            "=Zg=",  // padding before data
            "Zg=a",  // data after padding
            "Zm9v+w",  // standard alphabet
            "Zm9v/w",  // standard alphabet
            "Zm 9v",  // whitespace
            "Zm9v\n",  // newline
            "Zh",  // unused trailing bits are not zero
            "Zm9",  // unused trailing bits are not zero
            "Zm9vé",  // not ASCII
        ])
    func invalidInput(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
