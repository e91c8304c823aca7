import Foundation
import Testing

@testable import StratusDropbox

/// The JSON written for `Dropbox-API-Arg` headers and RPC bodies.
@Suite struct StoneEncodingTests {
    @Test func headerJSONEscapesNonASCIIAndDelete() {
        let value = StoneValue.object([("path", .string("/café/\u{7F}😀\"\\\n"))])
        #expect(value.json(asciiOnly: true) == #"{"path":"/caf\u00e9/\u007f\ud83d\ude00\"\\\n"}"#)
    }

    @Test func headerJSONIsPureASCII() {
        let json = StoneValue.string("日本語 ñ \u{1}").json(asciiOnly: true)
        #expect(json.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
        #expect(json == #""\u65e5\u672c\u8a9e \u00f1 \u0001""#)
    }

    @Test func bodyJSONKeepsUTF8() {
        #expect(StoneValue.string("café").json(asciiOnly: false) == "\"café\"")
    }

    @Test func headerJSONRoundTripsThroughAJSONParser() throws {
        let name = "Résumé 📄 \u{7F}.txt"
        let json = StoneValue.object([("path", .string(name))]).json(asciiOnly: true)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(parsed?["path"] == name)
    }

    @Test func unionMembers() {
        #expect(
            StoneValue.union("update", .string("0123456789a")).json(asciiOnly: true)
                == #"{".tag":"update","update":"0123456789a"}"#)
        #expect(StoneValue.tag("add").json(asciiOnly: true) == #"{".tag":"add"}"#)
        let cursor = StoneValue.object([("session_id", .string("s")), ("offset", .integer(4_194_304))])
        #expect(cursor.json(asciiOnly: true) == #"{"session_id":"s","offset":4194304}"#)
        #expect(StoneValue.array([.bool(true), .null]).json(asciiOnly: true) == "[true,null]")
    }
}
