import StratusDigest
import Testing

@Suite("HMAC-SHA256")
struct HMACSHA256Tests {
    /// RFC 4231 §4.2, test case 1; checked with
    /// python3 -c "import hmac, hashlib; print(hmac.new(b'\x0b'*20, b'Hi There', hashlib.sha256).hexdigest())"
    @Test("RFC 4231 test case 1")
    func rfc4231Case1() {
        let key = [UInt8](repeating: 0x0B, count: 20)
        let code = HMACSHA256.authenticationCode(for: Array("Hi There".utf8), key: key)
        #expect(Hex.encode(code) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    /// RFC 4231 §4.3, test case 2; checked with
    /// python3 -c "import hmac, hashlib; print(hmac.new(b'Jefe', b'what do ya want for nothing?', hashlib.sha256).hexdigest())"
    @Test("RFC 4231 test case 2")
    func rfc4231Case2() {
        let code = HMACSHA256.authenticationCode(
            for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(Hex.encode(code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// RFC 4231 §4.7, test case 6 (a key longer than the block size); checked with
    /// python3 -c "import hmac, hashlib; print(hmac.new(b'\xaa'*131, b'Test Using Larger Than Block-Size Key - Hash Key First', hashlib.sha256).hexdigest())"
    @Test("RFC 4231 test case 6: key longer than a block")
    func rfc4231Case6() {
        let key = [UInt8](repeating: 0xAA, count: 131)
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            Hex.encode(HMACSHA256.authenticationCode(for: message, key: key))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// python3 -c "import hmac, hashlib; print(hmac.new(b'', b'', hashlib.sha256).hexdigest())"
    @Test("Empty key and empty message")
    func emptyKeyAndMessage() {
        let code = HMACSHA256.authenticationCode(for: [UInt8](), key: [UInt8]())
        #expect(Hex.encode(code) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    /// python3 -c "import hmac, hashlib; print(hmac.new(b'key', bytes(i % 251 for i in range(100000)), hashlib.sha256).hexdigest())"
    @Test("Incremental pieces give the same code", arguments: [1, 7, 65_537, 100_000])
    func incrementalPieces(pieceSize: Int) {
        let message = TestInput.pattern(count: 100_000)
        let mac = HMACSHA256(key: Array("key".utf8))
        var offset = 0
        while offset < message.count {
            let end = min(offset + pieceSize, message.count)
            mac.update(message[offset..<end])
            offset = end
        }
        let expected = "498156ae47a20fa569b4e27f0d790ea6afa7d550f16ffca5af94e69b1afc7aa5"
        #expect(mac.finalizeHex() == expected)
        mac.update([1, 2, 3] as [UInt8])
        #expect(mac.finalizeHex() == expected, "finalize is idempotent and later updates are ignored")
        #expect(mac.finalize().count == HMACSHA256.byteCount)
    }
}
