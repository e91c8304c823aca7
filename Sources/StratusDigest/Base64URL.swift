public import Foundation

/// Base64 with the URL- and filename-safe alphabet of RFC 4648 §5 ("-" and "_" in place of "+"
/// and "/"), as JSON Web Tokens and PKCE use it.
public enum Base64URL {
    /// The 64 characters, indexed by value.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of each ASCII code in the alphabet; `invalid` for every other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// Marks a byte that is not in the alphabet.
    private static let invalid: UInt8 = 0xFF

    /// The padding character, accepted when decoding and never written.
    private static let padding = UInt8(ascii: "=")

    /// Writes bytes as URL-safe Base64 without padding.
    /// - Parameter bytes: The bytes.
    /// - Returns: The text.
    public static func encode<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        let alphabet = Self.alphabet
        return bytes.withUnsafeBytes { raw in
            let fullGroups = raw.count / 3
            let leftover = raw.count % 3
            let length = fullGroups * 4 + (leftover == 0 ? 0 : leftover + 1)
            return String(unsafeUninitializedCapacity: length) { text in
                var position = 0
                func write(_ sixBits: UInt32) {
                    text[position] = alphabet[Int(sixBits & 0x3F)]
                    position += 1
                }
                var index = 0
                while index + 3 <= raw.count {
                    let group = UInt32(raw[index]) << 16 | UInt32(raw[index + 1]) << 8 | UInt32(raw[index + 2])
                    write(group >> 18)
                    write(group >> 12)
                    write(group >> 6)
                    write(group)
                    index += 3
                }
                if leftover == 1 {
                    let group = UInt32(raw[index]) << 16
                    write(group >> 18)
                    write(group >> 12)
                } else if leftover == 2 {
                    let group = UInt32(raw[index]) << 16 | UInt32(raw[index + 1]) << 8
                    write(group >> 18)
                    write(group >> 12)
                    write(group >> 6)
                }
                return position
            }
        }
    }

    /// Reads URL-safe Base64 back into bytes.
    ///
    /// Padding is optional, but if present it must be complete (the text's length a multiple of
    /// four). The decoding is strict: characters of the standard alphabet ("+", "/"), whitespace,
    /// misplaced padding, an impossible length, and unused trailing bits that are not zero (so
    /// each byte string has exactly one encoding) are all rejected.
    /// - Parameter string: The text.
    /// - Returns: The bytes, or `nil` if the text is not valid URL-safe Base64.
    public static func decode(_ string: String) -> [UInt8]? {
        var characters = Array(string.utf8)
        if let firstPadding = characters.firstIndex(of: padding) {
            let paddingCount = characters.count - firstPadding
            guard characters.count.isMultiple(of: 4), paddingCount <= 2,
                characters[firstPadding...].allSatisfy({ $0 == padding })
            else {
                return nil
            }
            characters.removeLast(paddingCount)
        }
        let leftover = characters.count % 4
        guard leftover != 1 else {
            return nil
        }

        let values = Self.values
        var sixBitValues: [UInt32] = []
        sixBitValues.reserveCapacity(characters.count)
        for character in characters {
            let value = values[Int(character)]
            guard value != invalid else {
                return nil
            }
            sixBitValues.append(UInt32(value))
        }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 4 * 3 + 2)
        var index = 0
        while index + 4 <= sixBitValues.count {
            let group =
                sixBitValues[index] << 18 | sixBitValues[index + 1] << 12
                | sixBitValues[index + 2] << 6 | sixBitValues[index + 3]
            bytes.append(UInt8(truncatingIfNeeded: group >> 16))
            bytes.append(UInt8(truncatingIfNeeded: group >> 8))
            bytes.append(UInt8(truncatingIfNeeded: group))
            index += 4
        }
        if leftover == 2 {
            let group = sixBitValues[index] << 18 | sixBitValues[index + 1] << 12
            guard group & 0xFFFF == 0 else {
                return nil
            }
            bytes.append(UInt8(truncatingIfNeeded: group >> 16))
        } else if leftover == 3 {
            let group = sixBitValues[index] << 18 | sixBitValues[index + 1] << 12 | sixBitValues[index + 2] << 6
            guard group & 0xFF == 0 else {
                return nil
            }
            bytes.append(UInt8(truncatingIfNeeded: group >> 16))
            bytes.append(UInt8(truncatingIfNeeded: group >> 8))
        }
        return bytes
    }
}
