import Foundation

/// A JSON value built for a Dropbox argument, written in a fixed key order.
///
/// Stone arguments are small, so they are assembled as values instead of `Encodable` types:
/// a union member is `.union("update", "update", .string(rev))` or a bare tag
/// (`.string("add")`), struct members are plain objects.
enum StoneValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
    case object([(String, StoneValue)])
    case array([StoneValue])

    static func == (lhs: StoneValue, rhs: StoneValue) -> Bool {
        lhs.json(asciiOnly: true) == rhs.json(asciiOnly: true)
    }

    /// A union member with a nested value: `{".tag": tag, tag: value}`.
    static func union(_ tag: String, _ value: StoneValue) -> StoneValue {
        .object([(".tag", .string(tag)), (tag, value)])
    }

    /// A union member whose type is void: `{".tag": tag}`.
    static func tag(_ tag: String) -> StoneValue {
        .object([(".tag", .string(tag))])
    }

    /// The value as compact JSON text.
    /// - Parameter asciiOnly: Escape every non-ASCII character and DEL as `\uXXXX` (UTF-16 code
    ///   units, surrogate pairs for characters beyond the BMP), as a `Dropbox-API-Arg` header needs.
    func json(asciiOnly: Bool) -> String {
        var out = ""
        write(into: &out, asciiOnly: asciiOnly)
        return out
    }

    /// The value as UTF-8 JSON for a request body.
    var bodyData: Data { Data(json(asciiOnly: false).utf8) }

    private func write(into out: inout String, asciiOnly: Bool) {
        switch self {
        case .string(let text): StoneValue.writeString(text, into: &out, asciiOnly: asciiOnly)
        case .integer(let number): out += String(number)
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out, asciiOnly: asciiOnly)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                StoneValue.writeString(member.0, into: &out, asciiOnly: asciiOnly)
                out += ":"
                member.1.write(into: &out, asciiOnly: asciiOnly)
            }
            out += "}"
        }
    }

    /// Writes a JSON string literal, escaping quotes, backslashes and control characters, and
    /// with `asciiOnly` everything outside 0x20...0x7E.
    static func writeString(_ text: String, into out: inout String, asciiOnly: Bool) {
        out += "\""
        for unit in text.unicodeScalars {
            switch unit {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let value = unit.value
                if value < 0x20 || (asciiOnly && value >= 0x7F) {
                    for codeUnit in String(unit).utf16 {
                        out += "\\u" + hex4(codeUnit)
                    }
                } else {
                    out.unicodeScalars.append(unit)
                }
            }
        }
        out += "\""
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
