import Foundation
import MockSupport
import Testing

/// The mocks' JSON writer must give byte for byte what `JSONSerialization` gives.
@Suite("sorted JSON text")
struct SortedJSONTextTests {
    static func reference(_ value: Any) -> String? {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    static let keys = [
        "id", "ID", "Id", "name", "Name", "_name", "name_", "a_b", "aB", "ab", "a1", "a10", "a2", "a02", "A2",
        "sha1Checksum", "sha256Checksum", "md5Checksum", ".tag", "path_lower", "path_display", "é", "e", "f", "z",
        "Zeta", "ß", "ss", "日本", "x y", "", "0", "00", "1", "-1", "x\u{1}", "quote\"", "slash/",
    ]

    static func randomText(_ generator: inout SystemRandomNumberGenerator) -> String {
        let pieces = [
            "a", "Z", "/", "\\", "\"", "\n", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "e\u{301}", "😀", " ", "0", "_",
        ]
        return (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
            .joined()
    }

    static func randomValue(_ generator: inout SystemRandomNumberGenerator, depth: Int) -> Any {
        switch Int.random(in: 0...(depth > 2 ? 6 : 8), using: &generator) {
        case 0: return randomText(&generator)
        case 1: return Bool.random(using: &generator)
        case 2: return Int.random(in: -1_000_000...1_000_000, using: &generator)
        case 3: return Int64.random(in: .min ... .max, using: &generator)
        case 4: return NSNumber(value: Int.random(in: -5...5, using: &generator))
        case 5: return NSNull()
        case 6: return NSNumber(value: Bool.random(using: &generator))
        case 7:
            return (0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) }
        default:
            var object: [String: Any] = [:]
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                object[keys.randomElement(using: &generator) ?? "k"] = randomValue(&generator, depth: depth + 1)
            }
            return object
        }
    }

    @Test("key sets that would read alike when joined keep their own keys: {}, {\"\": …}, a NUL inside a key")
    func keySetsThatJoinAlike() {
        let values: [[String: Any]] = [[:], ["": 1], [:], ["a\u{0}b": 1], ["a": 2, "b": 3], ["a\u{0}b": 4], ["": 5]]
        for value in values {
            #expect(SortedJSONText.make(value) == Self.reference(value))
        }
    }

    @Test("random documents: strings with escapes, numbers, booleans, NSNumber, null, nested, tricky key orders")
    func matchesJSONSerialization() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let value = Self.randomValue(&generator, depth: 0)
            #expect(SortedJSONText.make(value) == Self.reference(value))
        }
        let everyKey = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, $0) })
        #expect(SortedJSONText.make(everyKey) == Self.reference(everyKey))
        #expect(SortedJSONText.make([1.5, 2.0, Double(3)] as [Any]) == Self.reference([1.5, 2.0, Double(3)] as [Any]))
    }
}
