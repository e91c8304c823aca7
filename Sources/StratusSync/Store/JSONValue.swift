import Foundation

/// A JSON value: what a record holds, kept exactly (integers stay integers, unknown fields stay).
///
/// Records are written by the app as any `Codable` value and travel as JSON; the store keeps them
/// as `JSONValue`, so a value read from another device holds every field it was written with
/// (``SyncRecord/value``), whatever this version of the app decodes. Fields at the top level of
/// a record document that this library does not know are kept when the record is written again;
/// what goes into a value is the app's own `Encodable` output.
public enum JSONValue: Hashable, Sendable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value, trying `null`, Boolean, 64-bit integer, other number, string, array and object in that order.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it holds, integers without a fraction.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Converts any `Encodable` value to JSON.
    /// - Throws: ``SyncError`` (`invalidValue`) when the value cannot be encoded as JSON.
    public init(encoding value: some Encodable) throws {
        do {
            let data = try JSONCoding.encoder.encode(value)
            self = try JSONValue.read(data)
        } catch {
            throw SyncError(.invalidValue, "The value cannot be written as JSON: \(error)")
        }
    }

    /// Decodes this JSON as a `Decodable` type.
    /// - Throws: ``SyncError`` (`invalidValue`) when the JSON does not fit the type.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        do {
            return try JSONCoding.decoder.decode(type, from: JSONCoding.encoder.encode(self))
        } catch {
            throw SyncError(.invalidValue, "The stored JSON does not decode as \(Value.self): \(error)")
        }
    }

    /// The members of an object, or `nil` for any other value.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }
}

/// The one JSON configuration of the sync layer: sorted keys (a document's bytes depend only on
/// its content) and ISO 8601 dates with fractional seconds.
enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(from: date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Not an ISO 8601 date: \(text.debugDescription)")
            }
            return date
        }
        return decoder
    }()
}

/// ISO 8601 timestamps with milliseconds, in UTC.
enum Timestamp {
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    /// A date to the nearest millisecond. The format style drops what is past the millisecond,
    /// and half of the dates it reads back are a hair below theirs (`.003` reads as
    /// 0.00299999…), so without the half millisecond added here a date lost a millisecond each
    /// time a document was read and written again (found by fuzzing).
    static func string(from date: Date) -> String {
        fractional.format(date.addingTimeInterval(0.0005))
    }

    static func date(from text: String) -> Date? {
        (try? fractional.parse(text)) ?? (try? whole.parse(text))
    }
}
