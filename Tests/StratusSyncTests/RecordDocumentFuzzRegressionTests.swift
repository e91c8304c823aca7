import Foundation
import Stratus
import Testing

@testable import StratusSync

/// What fuzzing the record document reader found (`Fuzz/`, target `recordDocument`): reading
/// nested values took time cubic in the depth, and a date lost a millisecond each time a
/// document was read and written again. The reader that replaced `JSONDecoder` for documents
/// reads what it read, which the last tests pin.
@Suite struct RecordDocumentFuzzRegressionTests {
    /// A record document whose value is `text`.
    private static func document(value text: String, modified: String = "2026-11-26T20:28:35.083Z") -> Data {
        let head = """
            {"deleted":false,"device":"A","edit":"e","files":{},"format":1,"id":"slot-1",\
            "modified":"\(modified)","type":"save","value":
            """
        return Data((head + text + "}").utf8)
    }

    private static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func aDeeplyNestedValueIsReadInLinearTime() throws {
        // Eight values nested 500 deep (8 KB): JSONDecoder took about 9 s for each in a debug
        // build (1.2 s in release), so a 16 MiB document would have stalled a sync for hours.
        let values = Array(repeating: Self.nested(500), count: 8).joined(separator: ",")
        let clock = ContinuousClock()
        let start = clock.now
        let document = try RecordDocument.decode(Self.document(value: "[\(values)]"), expectedKey: nil)
        #expect(clock.now - start < .seconds(5))
        guard case .array(let elements) = document.value else {
            Issue.record("the value is not an array")
            return
        }
        #expect(elements.count == 8)
    }

    @Test func nestingPastTheLimitIsAnInvalidDocument() async throws {
        // Read inside a task, on a thread of the cooperative pool, as a sync reads documents.
        let deepest = JSONReader.maximumDepth
        let accepted = try await Task {
            try RecordDocument.decode(Self.document(value: Self.nested(deepest - 1)), expectedKey: nil)
        }.value
        #expect(accepted.value != .null)
        let error = await #expect(throws: SyncError.self) {
            try await Task { try RecordDocument.decode(Self.document(value: Self.nested(deepest)), expectedKey: nil) }
                .value
        }
        #expect(error?.code == .invalidDocument)
        #expect(error?.message.contains("nested at most 512 deep") == true)
    }

    @Test(arguments: ["2026-03-15T18:02:11.002Z", "2206-03-15T18:02:11.040Z", "4052-11-26T20:28:34.742Z"])
    func aDateReadAndWrittenAgainKeepsItsMillisecond(_ modified: String) throws {
        // `.002` reads as 0.00199999…, which the formatter wrote as `.001`, and so on each round.
        let document = try RecordDocument.decode(Self.document(value: "1", modified: modified), expectedKey: nil)
        let written = try document.encoded()
        #expect(String(decoding: written, as: UTF8.self).contains("\"modified\":\"\(modified)\""))
        let again = try RecordDocument.decode(written, expectedKey: nil)
        #expect(try again.encoded() == written)
    }

    @Test(arguments: [
        "1", "-0", "1.0", "1e2", "1E+2", "1.5", "-0.0", "1e-400", "0.5e1", "2.5e1", "1.00000000000000000001",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "-9223372036854775808.0", "9223372036854775807.0", "123456789012345678901234567890", "4.9e-324",
        #"{"a":1,"a":2}"#, #"["\u00e9\ud83d\ude00\/\"\\\b\f\n\r\t\u0000"]"#, #"{"é":[true,false,null,{}]}"#,
        " [ 1 , 2 ] ", "\u{FEFF}[1]",
    ])
    func theReaderReadsWhatJSONDecoderRead(_ text: String) throws {
        let expected = try JSONCoding.decoder.decode(JSONValue.self, from: Data(text.utf8))
        #expect(try JSONValue.read(Data(text.utf8)) == expected)
    }

    @Test(arguments: [
        "", " ", "[1,]", #"{"a":1,}"#, "01", "-", "1.", "1e+", "[.5]", "1e400", "tru", "[1]]", "1 2", #"{"a" 1}"#,
        #"["\ud800"]"#, #"["\udc00x"]"#, #""\x""#, #""\u00""#, "\"a\u{0}\"", "\"\u{1F}\"",
    ])
    func theReaderRefusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONReadError.self) { try JSONValue.read(Data(text.utf8)) }
    }

    @Test func textThatIsNotUTF8IsRefused() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xFF, 0xFE, 0x31, 0x00]] {
            #expect(throws: JSONReadError.self) { try JSONValue.read(Data(bytes)) }
        }
    }
}
