import StratusHTTP
import Testing

/// `PercentEncoding`: the one encoder of paths, queries and form bodies.
@Suite struct PercentEncodingTests {
    @Test func encodesEverythingButTheUnreservedCharacters() {
        #expect(PercentEncoding.encode("a b+c&d=e/f~_.-") == "a%20b%2Bc%26d%3De%2Ff~_.-")
        #expect(PercentEncoding.encode("é🎮") == "%C3%A9%F0%9F%8E%AE")
        #expect(PercentEncoding.encode("100%") == "100%25")
        #expect(PercentEncoding.encodePath("saves/🎮 slot 1+2.json") == "saves/%F0%9F%8E%AE%20slot%201%2B2.json")
        #expect(
            PercentEncoding.encode("a\u{7F}b\n") { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") } == "a%7Fb%0A")
        #expect(PercentEncoding.query([("q", "name = 'a'"), ("x", "")]) == "q=name%20%3D%20%27a%27&x=")
        #expect(PercentEncoding.query([]) == "")
    }

    @Test func decodesWhatItEncodes() throws {
        for text in ["", "plain", "a b+c&d=e/f", "é🎮 100%"] {
            #expect(try PercentEncoding.decode(PercentEncoding.encode(text), plusAsSpace: false) == text)
        }
        #expect(try PercentEncoding.decode("a+b%2Bc", plusAsSpace: true) == "a b+c")
        #expect(throws: PercentEncoding.DecodingError.malformedEscape) {
            try PercentEncoding.decode("%2", plusAsSpace: false)
        }
        #expect(throws: PercentEncoding.DecodingError.notUTF8) { try PercentEncoding.decode("%FF", plusAsSpace: false) }
    }
}
