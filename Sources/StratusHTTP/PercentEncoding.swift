import StratusDigest

/// Percent-encoding as RFC 3986 defines it, exactly: the one encoder for URL paths, queries,
/// `application/x-www-form-urlencoded` bodies, signed canonical requests and header values.
///
/// Foundation's `addingPercentEncoding` leaves characters such as `+`, `&` and `=` alone in a
/// query, which servers then read as separators or spaces; this encoder leaves nothing alone
/// but what the caller keeps, and always writes upper-case hex (`%2F`), as request signatures
/// require.
public enum PercentEncoding {
    /// Why text could not be decoded.
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A `%` not followed by two hexadecimal digits.
        case malformedEscape
        /// The decoded bytes are not UTF-8.
        case notUTF8

        /// A sentence saying what is wrong.
        public var description: String {
            switch self {
            case .malformedEscape: "A '%' is not followed by two hexadecimal digits."
            case .notUTF8: "The decoded text is not valid UTF-8."
            }
        }
    }

    /// Encodes every byte except the unreserved characters of RFC 3986 (`A-Z a-z 0-9 - . _ ~`),
    /// so the result is safe anywhere in a URL, including as a query value holding `&`, `=`,
    /// `+`, `/` or spaces (which become `%20`).
    /// - Parameter text: The text to encode.
    /// - Returns: The encoded text.
    public static func encode(_ text: String) -> String {
        encode(text, keeping: isUnreserved)
    }

    /// Encodes a path: every byte except the unreserved characters and `/`, so the segments
    /// stay apart (`a b/c+d` becomes `a%20b/c%2Bd`).
    /// - Parameter path: The path, its segments not yet encoded.
    /// - Returns: The encoded path.
    public static func encodePath(_ path: String) -> String {
        encode(path) { isUnreserved($0) || $0 == UInt8(ascii: "/") }
    }

    /// Encodes every byte of the text's UTF-8 for which `keeps` is false, as `%XX` in upper-case
    /// hex. `%` itself should never be kept, or the result cannot be decoded.
    /// - Parameters:
    ///   - text: The text to encode.
    ///   - keeps: Whether a byte stays as it is.
    /// - Returns: The encoded text.
    public static func encode(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeps(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hexDigit(byte >> 4))
                encoded.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return encoded
    }

    /// `name=value&name=value`, in the order given, each name and value encoded with
    /// ``encode(_:)``: a query string or a form body.
    /// - Parameter fields: The names and values.
    /// - Returns: The encoded text, empty for no fields.
    public static func query(_ fields: [(name: String, value: String)]) -> String {
        fields.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
    }

    /// Decodes `%XX` escapes, and with `plusAsSpace` turns `+` into a space, as form bodies and
    /// query strings require.
    /// - Parameters:
    ///   - text: The encoded text.
    ///   - plusAsSpace: Whether `+` stands for a space.
    /// - Returns: The decoded text.
    /// - Throws: ``DecodingError`` for a broken escape or bytes that are not UTF-8.
    public static func decode(_ text: some StringProtocol, plusAsSpace: Bool) throws(DecodingError) -> String {
        // Most names and values have nothing to decode: they are already valid text.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        let input = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < input.count, let high = Hex.value(ofDigit: input[index + 1]),
                    let low = Hex.value(ofDigit: input[index + 2])
                else {
                    throw .malformedEscape
                }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let decoded = String(validating: output, as: UTF8.self) else {
            throw .notUTF8
        }
        return decoded
    }

    /// Whether a byte is an RFC 3986 unreserved character (`A-Z a-z 0-9 - . _ ~`), which never
    /// needs percent-encoding.
    /// - Parameter byte: A byte of UTF-8.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }
}
