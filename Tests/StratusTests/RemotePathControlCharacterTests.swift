import Stratus
import Testing

/// Every C0 control character and DEL, not only the few spot-checked elsewhere, is refused in
/// any position of any component, and the printable neighbours of the range are not.
@Suite("RemotePath control characters")
struct RemotePathControlCharacterTests {
    /// U+0000 to U+001F and U+007F, as numbers so reports print them safely.
    static let controls: [UInt32] = Array(0x00...0x1F) + [0x7F]

    @Test(arguments: RemotePathControlCharacterTests.controls)
    func refusedAnywhere(codePoint: UInt32) throws {
        let control = String(try #require(Unicode.Scalar(codePoint)))
        for text in [
            control, "a\(control)", "\(control)a", "saves/a\(control)b/slot.json", "/saves/slot.json\(control)",
        ] {
            let error = try #require(throws: ServiceError.self, "U+\(String(codePoint, radix: 16))") {
                try RemotePath(text)
            }
            #expect(error.code == .invalidPath)
            #expect(error.message.contains("control character"))
        }
        let appended = try #require(throws: ServiceError.self) {
            try RemotePath("saves").appending("slot\(control).json")
        }
        #expect(appended.code == .invalidPath)
    }

    @Test func printableNeighboursAreKept() throws {
        for text in [" ", "~", "a b", "slot~1.json", "\u{A0}"] {
            #expect(try RemotePath(text).components == [text])
        }
    }
}
