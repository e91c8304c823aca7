public import Foundation

/// Hexadecimal text for bytes, as digests are usually printed.
public enum Hex {
    /// The lowercase hexadecimal digits, indexed by value.
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes bytes as lowercase hexadecimal, two digits per byte.
    /// - Parameter bytes: The bytes.
    /// - Returns: The text, twice as many characters as there are bytes.
    public static func encode<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        let digits = Self.digits
        return bytes.withUnsafeBytes { raw in
            String(unsafeUninitializedCapacity: raw.count * 2) { text in
                var position = 0
                for byte in raw {
                    text[position] = digits[Int(byte >> 4)]
                    text[position + 1] = digits[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }

    /// Reads hexadecimal text back into bytes; upper- and lowercase digits are both accepted.
    /// - Parameter string: The text: an even number of hexadecimal digits, nothing else.
    /// - Returns: The bytes, or `nil` if the text has an odd length or a character that is not a
    ///   hexadecimal digit.
    public static func decode(_ string: String) -> [UInt8]? {
        let characters = string.utf8
        guard characters.count.isMultiple(of: 2) else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var highNibble: UInt8?
        for character in characters {
            guard let nibble = value(ofDigit: character) else {
                return nil
            }
            if let high = highNibble {
                bytes.append(high << 4 | nibble)
                highNibble = nil
            } else {
                highNibble = nibble
            }
        }
        return bytes
    }

    /// The value of one hexadecimal digit given as an ASCII code, either case, or `nil` for any
    /// other character.
    public static func value(ofDigit character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
