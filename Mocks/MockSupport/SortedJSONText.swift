import Foundation
import Synchronization

/// JSON text for values built from dictionaries, arrays, strings, integers, booleans and
/// `NSNull`, exactly as `JSONSerialization` writes them with `.sortedKeys`,
/// `.withoutEscapingSlashes` and `.fragmentsAllowed`, at a fraction of the cost.
///
/// `JSONSerialization` hands every token to a closure and orders keys with a locale-aware,
/// case-insensitive, numeric comparison per pair, which made it the largest cost of a mock's
/// listing page. Here bytes go straight into one buffer, and the order of each distinct set of
/// keys (a resource has a handful) is worked out once with that same comparison and remembered.
/// Values of any other type (floating-point numbers, `NSNumber`) are written by
/// `JSONSerialization` itself, so the output never differs.
public enum SortedJSONText {
    /// The JSON text of a value.
    /// - Returns: The text, or `nil` when `JSONSerialization` would refuse the value.
    public static func make(_ value: Any) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        guard append(value, to: &output) else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the JSON text of a value to a buffer, for answers assembled piece by piece.
    /// - Returns: `false` when `JSONSerialization` would refuse the value (the buffer may then
    ///   hold part of it).
    public static func append(_ value: Any, to output: inout [UInt8]) -> Bool {
        // Exact dynamic types: an `NSNumber` also casts to `Bool` and `Int`, but
        // `JSONSerialization` writes it by its own rules, so it goes to the fallback (but for a
        // boolean, which it writes as `true` or `false` like a `Bool`).
        let kind = type(of: value)
        if kind == String.self, let text = value as? String {
            appendString(text, to: &output)
        } else if kind == Bool.self, let flag = value as? Bool {
            output += flag ? Array("true".utf8) : Array("false".utf8)
        } else if kind == Int.self, let number = value as? Int {
            output += Array(String(number).utf8)
        } else if kind == Int64.self, let number = value as? Int64 {
            output += Array(String(number).utf8)
        } else if !(kind is NSObject.Type), let array = value as? [Any] {
            output.append(UInt8(ascii: "["))
            for (position, element) in array.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                guard append(element, to: &output) else { return false }
            }
            output.append(UInt8(ascii: "]"))
        } else if !(kind is NSObject.Type), let object = value as? [String: Any] {
            output.append(UInt8(ascii: "{"))
            for (position, key) in ordered(object.keys).enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                guard let member = object[key], append(member, to: &output) else { return false }
            }
            output.append(UInt8(ascii: "}"))
        } else if kind == NSNull.self {
            output += Array("null".utf8)
        } else if let number = value as? NSNumber, number.isJSONBoolean {
            output += number.boolValue ? Array("true".utf8) : Array("false".utf8)
        } else {
            guard JSONSerialization.isValidJSONObject([value]),
                let data = try? JSONSerialization.data(
                    withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
            else { return false }
            output += data
        }
        return true
    }

    /// Appends a string as a JSON string literal, with `"`, `\` and control characters escaped
    /// as `JSONSerialization` escapes them.
    public static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += Array("\\u00".utf8)
                if byte >= 0x10 { output.append(hex[Int(byte >> 4)]) } else { output.append(UInt8(ascii: "0")) }
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Object member names in the order ``make(_:)`` writes them (`JSONSerialization`'s),
    /// remembered per set of names.
    public static func ordered(_ keys: some Sequence<String>) -> [String] {
        // The sorted keys themselves identify the set: a joined string would make `{}` and
        // `{"": …}`, or `["a\u{0}b"]` and `["a", "b"]`, look alike and drop or invent keys.
        let signature = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let known = orders.withLock({ $0[signature] }) { return known }
        let byBytes = signature
        let ordered = byBytes.sorted { a, b in
            a.compare(
                b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
                locale: NSLocale.system) == .orderedAscending
        }
        orders.withLock { known in
            // Keys a client chose (custom properties) could make sets without end: keep a bounded memory.
            if known.count >= 1024 { known.removeAll() }
            known[signature] = ordered
        }
        return ordered
    }

    private static let orders = Mutex<[[String]: [String]]>([:])
}
