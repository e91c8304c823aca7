import Foundation
import Stratus
import StratusAdapterKit
import Testing

/// ``JSONReader``: values read as the caller asks, JSON's grammar enforced, errors that say
/// where and never quote the text.
@Suite struct JSONReaderTests {
    /// Reads any value into Foundation's shapes, to compare with `JSONSerialization`.
    private func anyValue(_ reader: inout JSONReader) throws(JSONReadError) -> Any {
        switch try reader.peek() {
        case .object:
            var object: [String: Any] = [:]
            try reader.readObject { name, reader throws(JSONReadError) in object[name] = try anyValue(&reader) }
            return object
        case .array: return try reader.readArray { reader throws(JSONReadError) in try anyValue(&reader) }
        case .string: return try reader.readString()
        case .number: return try reader.readDouble()
        case .bool: return try reader.readBool()
        case .null:
            _ = try reader.readNull()
            return NSNull()
        }
    }

    private func read(_ text: String) throws(JSONReadError) -> Any {
        try JSONReader.read(Data(text.utf8)) { reader throws(JSONReadError) in try anyValue(&reader) }
    }

    @Test func readsEveryKindOfValueAndEscape() throws {
        let text = #"""
             {"a": [1, -2.5e3, 0, true, false, null, {}], "b\u00e9": {"c": "d\"\\\/\b\f\n\r\t"},
              "e": "\ud83d\ude00 é", "f": [], "g": 0.125}
            """#
        let object = try #require(try read(text) as? [String: Any])
        #expect(object.keys.sorted() == ["a", "bé", "e", "f", "g"])
        let array = try #require(object["a"] as? [Any])
        #expect(array.count == 7)
        #expect(array[0] as? Double == 1)
        #expect(array[1] as? Double == -2500)
        #expect(array[3] as? Bool == true)
        #expect(array[4] as? Bool == false)
        #expect(array[5] is NSNull)
        #expect((array[6] as? [String: Any])?.isEmpty == true)
        #expect((object["bé"] as? [String: Any])?["c"] as? String == "d\"\\/\u{08}\u{0C}\n\r\t")
        #expect(object["e"] as? String == "😀 é")
        #expect((object["f"] as? [Any])?.isEmpty == true)
        #expect(object["g"] as? Double == 0.125)
    }

    @Test func membersAreHandedOverInOrderAndSkippedValuesLeaveNoTrace() throws {
        var names: [String] = []
        var kept: Int64?
        try JSONReader.read(Data(#"{"skip": {"x": [1, {"y": "}"}]}, "keep": 42, "also": "]"}"#.utf8)) {
            reader throws(JSONReadError) in
            try reader.readObject { name, reader throws(JSONReadError) in
                names.append(name)
                if name == "keep" { kept = try reader.readInt64() } else { try reader.skipValue() }
            }
        }
        #expect(names == ["skip", "keep", "also"])
        #expect(kept == 42)
    }

    @Test func wholeNumbersAndTheirLimits() throws {
        func int(_ text: String) throws(JSONReadError) -> Int64 {
            try JSONReader.read(Data(text.utf8)) { reader throws(JSONReadError) in try reader.readInt64() }
        }
        #expect(try int("9223372036854775807") == Int64.max)
        #expect(try int("-9223372036854775808") == Int64.min)
        #expect(throws: JSONReadError.self) { try int("9223372036854775808") }
        #expect(throws: JSONReadError.self) { try int("1.5") }
        #expect(throws: JSONReadError.self) { try int("\"1\"") }
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{\"a\":1,}", "01", "1.", ".5", "-", "1e",
        "+1", "tru", "nul", "\"abc", "\"a\u{01}b\"", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\ud800\\u0041\"",
        "\"\\udc00\"", "[1] [2]", "NaN", "'a'",
    ])
    func malformedTextIsRefused(_ text: String) {
        #expect(throws: JSONReadError.self) { try read(text) }
        // Skipping checks the grammar too; only a lone surrogate passes unnoticed in a skipped string.
        if !text.contains("\\ud8"), !text.contains("\\udc") {
            #expect(throws: JSONReadError.self) {
                try JSONReader.read(Data(text.utf8)) { reader throws(JSONReadError) in try reader.skipValue() }
            }
        }
    }

    @Test func invalidUTF8IsRefusedInPlainAndEscapedStrings() {
        for bytes: [UInt8] in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0x5C, 0x6E, 0xFF, 0x22]] {
            #expect(throws: JSONReadError.self) {
                try JSONReader.read(Data(bytes)) { reader throws(JSONReadError) in try reader.readString() }
            }
        }
    }

    @Test func nestingIsBoundedSoAServerCannotExhaustTheStack() throws {
        let allowed =
            String(repeating: "[", count: JSONReader.maximumDepth)
            + String(repeating: "]", count: JSONReader.maximumDepth)
        _ = try read(allowed)
        let deep = String(repeating: "[", count: 100_000)
        let error = #expect(throws: JSONReadError.self) {
            try JSONReader.read(Data(deep.utf8)) { reader throws(JSONReadError) in try reader.skipValue() }
        }
        #expect(error?.offset == JSONReader.maximumDepth)
    }

    @Test func aMemberLeftUnreadIsAnError() {
        #expect(throws: JSONReadError.self) {
            try JSONReader.read(Data(#"{"a": 1}"#.utf8)) { reader throws(JSONReadError) in
                try reader.readObject { _, _ throws(JSONReadError) in }
            }
        }
    }

    @Test func errorsSayWhereAndNeverQuoteTheText() {
        let secret = "ya29.secret-token"
        let error = #expect(throws: JSONReadError.self) {
            try JSONReader.read(Data(#"{"token": "\#(secret)"}"#.utf8)) { reader throws(JSONReadError) in
                try reader.readObject { _, reader throws(JSONReadError) in _ = try reader.readInt64() }
            }
        }
        #expect(error?.offset == 10)
        #expect(error.map { !$0.description.contains(secret) } == true)
    }
}
