public import Foundation

/// Reads JSON text (RFC 8259) value by value, straight into an adapter's own types.
///
/// A provider's listing or change-feed page holds a thousand entries of a dozen members each;
/// `JSONDecoder` spends most of a feed reader's CPU building containers for them. This reader
/// walks the bytes once: the caller asks for the value it expects next (``readObject(_:)``
/// hands each member's name to a closure that reads or skips its value), so nothing but the
/// caller's own values is built.
///
/// ```swift
/// let page = try JSONReader.read(body) { reader throws(JSONReadError) in
///     var token: String?
///     try reader.readObject { name, reader throws(JSONReadError) in
///         if name == "nextPageToken" { token = try reader.readStringUnlessNull() } else { try reader.skipValue() }
///     }
///     return token
/// }
/// ```
///
/// The text is checked as it is read: strings read must be valid UTF-8 (strings skipped are
/// only checked for escapes and control characters), numbers must follow JSON's grammar, and
/// objects and arrays may nest at most ``maximumDepth`` deep, so text from a server cannot
/// exhaust the stack. An error names the
/// byte offset and what was expected, never the text itself (it may carry a secret).
public struct JSONReader: Sendable {
    /// What kind of value comes next.
    public enum ValueKind: Sendable, Equatable {
        /// `{...}`
        case object
        /// `[...]`
        case array
        /// `"..."`
        case string
        /// A number.
        case number
        /// `true` or `false`.
        case bool
        /// `null`.
        case null
    }

    /// The deepest nesting of objects and arrays the reader accepts, as `JSONDecoder`'s.
    public static let maximumDepth = 512

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    /// A reader positioned before the first value of `data`.
    public init(_ data: Data) {
        bytes = [UInt8](data)
    }

    /// A reader positioned before the first value of `text`.
    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Reads a whole document: `read` consumes its one value, after which only white space
    /// may follow.
    /// - Parameters:
    ///   - data: The JSON text.
    ///   - read: Reads the document's value.
    /// - Returns: What `read` returned.
    /// - Throws: ``JSONReadError`` when the text is not JSON, is not what `read` expects, or
    ///   has more after the value.
    @inlinable
    public static func read<Value>(
        _ data: Data, _ read: (inout JSONReader) throws(JSONReadError) -> Value
    ) throws(JSONReadError) -> Value {
        var reader = JSONReader(data)
        let value = try read(&reader)
        try reader.finish()
        return value
    }

    /// Checks that nothing but white space follows the value read.
    /// - Throws: ``JSONReadError`` when something does.
    public mutating func finish() throws(JSONReadError) {
        skipSpace()
        guard position == bytes.count else { throw error("nothing after the value") }
    }

    /// An error at the current position, for a value the caller finds wrong.
    /// - Parameter expectation: What was expected, such as `a size in decimal digits`.
    public func error(_ expectation: String) -> JSONReadError {
        JSONReadError(offset: position, expectation: expectation)
    }

    // MARK: Looking ahead

    /// The kind of the next value, without reading it.
    /// - Throws: ``JSONReadError`` at the end of the text or before a byte no value starts with.
    public mutating func peek() throws(JSONReadError) -> ValueKind {
        skipSpace()
        guard position < bytes.count else { throw error("a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw error("a value")
        }
    }

    // MARK: Containers

    /// Reads an object, calling `member` with each member's name; `member` must read or skip
    /// the value (a member whose value is left unread is an error). A repeated name is handed
    /// over each time it appears.
    /// - Throws: ``JSONReadError`` when the next value is not a well-formed object, or what
    ///   `member` throws.
    public mutating func readObject(
        _ member: (String, inout JSONReader) throws(JSONReadError) -> Void
    ) throws(JSONReadError) {
        try enter(UInt8(ascii: "{"), "an object")
        defer { depth -= 1 }
        skipSpace()
        if consume(UInt8(ascii: "}")) { return }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("a member name") }
            let name = try readString()
            skipSpace()
            guard consume(UInt8(ascii: ":")) else { throw error("':' after a member name") }
            let valueStart = position
            try member(name, &self)
            guard position > valueStart else { throw error("a member's value to be read") }
            skipSpace()
            if consume(UInt8(ascii: "}")) { return }
            guard consume(UInt8(ascii: ",")) else { throw error("',' or '}' in an object") }
        }
    }

    /// Reads an array, calling `element` once for each element, which it must read or skip.
    /// - Throws: ``JSONReadError`` when the next value is not a well-formed array, or what
    ///   `element` throws.
    public mutating func readArray(_ element: (inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        try enter(UInt8(ascii: "["), "an array")
        defer { depth -= 1 }
        skipSpace()
        if consume(UInt8(ascii: "]")) { return }
        while true {
            skipSpace()
            let valueStart = position
            try element(&self)
            guard position > valueStart else { throw error("an array element to be read") }
            skipSpace()
            if consume(UInt8(ascii: "]")) { return }
            guard consume(UInt8(ascii: ",")) else { throw error("',' or ']' in an array") }
        }
    }

    /// Reads an array whose elements are all read the same way.
    /// - Throws: ``JSONReadError`` when the next value is not a well-formed array, or what
    ///   `element` throws.
    @inlinable
    public mutating func readArray<Element>(
        of element: (inout JSONReader) throws(JSONReadError) -> Element
    ) throws(JSONReadError) -> [Element] {
        var elements: [Element] = []
        try readArray { reader throws(JSONReadError) in elements.append(try element(&reader)) }
        return elements
    }

    /// Reads any value and discards it.
    /// - Throws: ``JSONReadError`` when the next value is not well-formed JSON.
    public mutating func skipValue() throws(JSONReadError) {
        switch try peek() {
        case .object: try readObject { _, reader throws(JSONReadError) in try reader.skipValue() }
        case .array: try readArray { reader throws(JSONReadError) in try reader.skipValue() }
        case .string: try skipString()
        case .number: _ = try numberRange()
        case .bool: _ = try readBool()
        case .null: _ = try readNull()
        }
    }

    // MARK: Scalars

    /// Reads `null` when it comes next.
    /// - Returns: Whether a `null` was read; when not, nothing was.
    /// - Throws: ``JSONReadError`` at the end of the text, or on a malformed literal.
    public mutating func readNull() throws(JSONReadError) -> Bool {
        guard try peek() == .null else { return false }
        try literal("null")
        return true
    }

    /// Reads `true` or `false`.
    /// - Throws: ``JSONReadError`` when the next value is not a boolean.
    public mutating func readBool() throws(JSONReadError) -> Bool {
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    /// Reads a number that is a whole number in `Int64`'s range (no fraction, no exponent).
    /// - Throws: ``JSONReadError`` when the next value is not such a number.
    public mutating func readInt64() throws(JSONReadError) -> Int64 {
        try readNumber("a whole number in Int64's range", Int64.init)
    }

    /// Reads a number as a `Double`.
    /// - Throws: ``JSONReadError`` when the next value is not a number.
    public mutating func readDouble() throws(JSONReadError) -> Double {
        try readNumber("a number", Double.init)
    }

    /// Steps over a number and makes a value of its text; on failure nothing is read.
    private mutating func readNumber<Value>(_ expectation: String, _ make: (String) -> Value?) throws(JSONReadError)
        -> Value
    {
        let start = position
        let range = try numberRange()
        guard let value = make(String(decoding: bytes[range], as: UTF8.self)) else {
            position = start
            throw error(expectation)
        }
        return value
    }

    /// Reads a string, with its escapes resolved.
    /// - Throws: ``JSONReadError`` when the next value is not a string, or the string holds
    ///   invalid UTF-8, a raw control character or a malformed escape.
    public mutating func readString() throws(JSONReadError) -> String {
        skipSpace()
        guard consume(UInt8(ascii: "\"")) else { throw error("a string") }
        let start = position
        var isASCII = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                // ASCII needs no validation (the generic validating initialiser costs a
                // metadata look-up per string).
                let text =
                    isASCII
                    ? String(decoding: bytes[start..<position], as: UTF8.self)
                    : try decodeUTF8(bytes[start..<position], at: start)
                position += 1
                return text
            }
            isASCII = isASCII && byte < 0x80
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            guard byte >= 0x20 else { throw error("no control character inside a string") }
            position += 1
        }
        throw error("the end of a string")
    }

    /// Steps over a string without building it: escapes and control characters are checked,
    /// UTF-8 is not (a value skipped is never seen), which makes skipping a large member cheap.
    private mutating func skipString() throws(JSONReadError) {
        skipSpace()
        guard consume(UInt8(ascii: "\"")) else { throw error("a string") }
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error("an escape") }
                if bytes[position] == UInt8(ascii: "u") {
                    position += 1
                    _ = try hexQuad()
                } else if "\"\\/bfnrt".utf8.contains(bytes[position]) {
                    position += 1
                } else {
                    throw error("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
                }
            case 0x00..<0x20:
                throw error("no control character inside a string")
            default:
                position += 1
            }
        }
        throw error("the end of a string")
    }

    /// Reads a string, or `null` as `nil`.
    /// - Throws: ``JSONReadError`` when the next value is neither.
    public mutating func readStringUnlessNull() throws(JSONReadError) -> String? {
        try readNull() ? nil : readString()
    }

    // MARK: Internals

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func enter(_ opening: UInt8, _ what: String) throws(JSONReadError) {
        skipSpace()
        guard consume(opening) else { throw error(what) }
        guard depth < Self.maximumDepth else {
            position -= 1
            throw error("objects and arrays nested at most \(Self.maximumDepth) deep")
        }
        depth += 1
    }

    private mutating func literal(_ word: StaticString) throws(JSONReadError) {
        skipSpace()
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            position + count <= bytes.count && bytes[position..<position + count].elementsEqual(expected)
        }
        guard matches else { throw error("'\(word)'") }
        position += count
    }

    /// Steps over a number as JSON's grammar has it and returns where its text is.
    private mutating func numberRange() throws(JSONReadError) -> Range<Int> {
        skipSpace()
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position - first
        }
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            // A leading zero stands alone.
        } else if digits() == 0 {
            position = start
            throw error("a number")
        }
        if consume(UInt8(ascii: ".")), digits() == 0 {
            position = start
            throw error("digits after a decimal point")
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            if digits() == 0 {
                position = start
                throw error("digits in an exponent")
            }
        }
        return start..<position
    }

    private func decodeUTF8(_ slice: ArraySlice<UInt8>, at offset: Int) throws(JSONReadError) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw JSONReadError(offset: offset, expectation: "a string of valid UTF-8")
        }
        return text
    }

    /// The rest of a string that has an escape at the current position.
    private mutating func readEscapedString(from start: Int) throws(JSONReadError) -> String {
        var text = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try decodeUTF8(text[...], at: start)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error("an escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"): text += try readUnicodeEscape()
                default:
                    position -= 1
                    throw error("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
                }
            case 0x00..<0x20:
                throw error("no control character inside a string")
            default:
                text.append(byte)
                position += 1
            }
        }
        throw error("the end of a string")
    }

    /// The UTF-8 of a `\uXXXX` escape whose `\u` was read, with a UTF-16 surrogate pair's second
    /// half when the first asks for one.
    private mutating func readUnicodeEscape() throws(JSONReadError) -> [UInt8] {
        let first = try hexQuad()
        var value = UInt32(first)
        if (0xD800..<0xDC00).contains(first) {
            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                throw error("the second half of a surrogate pair")
            }
            let second = try hexQuad()
            guard (0xDC00..<0xE000).contains(second) else { throw error("the second half of a surrogate pair") }
            value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("a Unicode scalar, not a lone surrogate") }
        return Array(String(Character(scalar)).utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func hexQuad() throws(JSONReadError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw error("four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[position]) else { throw error("four hex digits") }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }
}

/// JSON text that is not what a ``JSONReader`` was asked to read.
///
/// It names where and what was expected, never the text itself.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset in the text where reading stopped.
    public var offset: Int
    /// What was expected there, such as `a string` or `',' or '}' in an object`.
    public var expectation: String

    /// Creates an error.
    /// - Parameters:
    ///   - offset: The byte offset.
    ///   - expectation: What was expected there.
    public init(offset: Int, expectation: String) {
        self.offset = offset
        self.expectation = expectation
    }

    /// `expected <expectation> at byte <offset>`.
    public var description: String { "expected \(expectation) at byte \(offset)" }
}
