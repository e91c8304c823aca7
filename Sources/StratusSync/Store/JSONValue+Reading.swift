import Foundation
import Stratus

extension JSONValue {
    /// Reads one JSON document from a remote (or from the local database) in one pass over the
    /// bytes, with ``/Stratus/JSONReader``.
    ///
    /// `JSONDecoder` reads a `JSONValue` by trying each kind in turn at every level, which costs
    /// time cubic in the nesting: a 1 KB record document nested 500 deep took 1.2 s to read, so
    /// a 16 MiB one would stall a sync for hours (found by fuzzing). This gives the value
    /// `JSONDecoder` gives for any UTF-8 JSON it accepts: an integer when the number fits 64
    /// bits, or when it is written with a fraction or exponent but is a whole number strictly
    /// inside 64 bits' range; a double otherwise (one too large for a double is refused); the
    /// first value of a repeated member name; at most ``/Stratus/JSONReader/maximumDepth``
    /// levels; a UTF-8 byte order mark may come first. It refuses what JSON does not allow even
    /// where `JSONDecoder` is lenient: a trailing comma, and text that is not UTF-8.
    /// - Throws: ``/Stratus/JSONReadError`` naming what was wrong and where (never the text).
    static func read(_ data: Data) throws(JSONReadError) -> JSONValue {
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        return try JSONReader.read(text) { reader throws(JSONReadError) in try value(&reader) }
    }

    private static func value(_ reader: inout JSONReader) throws(JSONReadError) -> JSONValue {
        switch try reader.peek() {
        case .null:
            _ = try reader.readNull()
            return .null
        case .bool:
            return .bool(try reader.readBool())
        case .string:
            return .string(try reader.readString())
        case .number:
            return try number(&reader)
        case .array:
            var elements: [JSONValue] = []
            try reader.readArray { reader throws(JSONReadError) in elements.append(try value(&reader)) }
            return .array(elements)
        case .object:
            var members: [String: JSONValue] = [:]
            try reader.readObject { name, reader throws(JSONReadError) in
                let member = try value(&reader)
                if members[name] == nil { members[name] = member }
            }
            return .object(members)
        }
    }

    /// A number as `JSONDecoder` reads one into a `JSONValue` (see ``read(_:)``).
    private static func number(_ reader: inout JSONReader) throws(JSONReadError) -> JSONValue {
        if let integer = try? reader.readInt64() { return .integer(integer) }
        let start = reader.error("a number a double can hold")
        let double = try reader.readDouble()
        guard double.isFinite else { throw start }
        if double > -0x1p63, double < 0x1p63, double.rounded(.towardZero) == double,
            let integer = Int64(exactly: double)
        {
            return .integer(integer)
        }
        return .double(double)
    }
}
