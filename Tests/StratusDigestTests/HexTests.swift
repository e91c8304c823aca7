import StratusDigest
import Testing

@Suite("Hex")
struct HexTests {
    @Test("Encodes lowercase, two digits per byte")
    func encode() {
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.encode([0x00, 0x01, 0x7F, 0x80, 0xAB, 0xFF] as [UInt8]) == "00017f80abff")
    }

    @Test("Round trips every byte value")
    func roundTrip() {
        let bytes = (0...255).map { UInt8($0) }
        let text = Hex.encode(bytes)
        #expect(text.count == 512)
        #expect(Hex.decode(text) == bytes)
        #expect(Hex.decode(text.uppercased()) == bytes)
    }

    @Test("Decodes mixed case and empty input")
    func decode() {
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("00aBcD") == [0x00, 0xAB, 0xCD])
    }

    @Test("Invalid input decodes to nil", arguments: ["0", "abc", "zz", "0g", " 00", "00 ", "0x00", "é0", "+1"])
    func invalidInput(text: String) {
        #expect(Hex.decode(text) == nil)
    }
}
