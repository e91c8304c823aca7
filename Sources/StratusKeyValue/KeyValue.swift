public import Foundation
internal import StratusSync

/// A value in a ``KeyValueStore``: a property-list-like value (as in `UserDefaults`).
///
/// It travels as JSON; `Data` and `Date` are written as `{"$data": "<base64>"}` and
/// `{"$date": "<ISO 8601>"}` so they come back as what they were.
public enum KeyValue: Hashable, Sendable {
    /// A Boolean.
    case bool(Bool)
    /// A 64-bit integer.
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A point in time (kept to the millisecond).
    case date(Date)
    /// An array.
    case array([KeyValue])
    /// A dictionary with string keys.
    case dictionary([String: KeyValue])

    /// The one date form of the store's JSON (`$date` values and entry times): ISO 8601 with
    /// milliseconds, as StratusSync writes its own timestamps.
    static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// A date as the document writes it, to the nearest millisecond: the style drops what is
    /// past the millisecond and reads `.003` back as 0.00299999…, so without the half
    /// millisecond a date lost a millisecond each time it was read and written again.
    static func dateText(_ date: Date) -> String {
        dateStyle.format(date.addingTimeInterval(0.0005))
    }

    /// The value as JSON.
    var json: JSONValue {
        switch self {
        case .bool(let value): .bool(value)
        case .integer(let value): .integer(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .data(let value): .object(["$data": .string(value.base64EncodedString())])
        case .date(let value): .object(["$date": .string(Self.dateText(value))])
        case .array(let values): .array(values.map(\.json))
        case .dictionary(let values):
            // A dictionary that could be read as a tag is wrapped, so it comes back as itself.
            values.keys.contains(where: { $0.hasPrefix("$") })
                ? .object(["$dict": .object(values.mapValues(\.json))]) : .object(values.mapValues(\.json))
        }
    }

    /// Reads a value from JSON.
    /// - Throws: ``KeyValueError`` (`invalidDocument`) for `null` or a malformed `$data`/`$date`.
    init(json: JSONValue) throws {
        switch json {
        case .null: throw KeyValueError(.invalidDocument, "A key-value entry holds null, which is not a value.")
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .integer(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(try values.map(KeyValue.init(json:)))
        case .object(let members):
            if members.count == 1, case .object(let wrapped)? = members["$dict"] {
                self = .dictionary(try wrapped.mapValues(KeyValue.init(json:)))
            } else if members.count == 1, case .string(let text)? = members["$data"] {
                guard let data = Data(base64Encoded: text) else {
                    throw KeyValueError(.invalidDocument, "A $data value is not base64.")
                }
                self = .data(data)
            } else if members.count == 1, case .string(let text)? = members["$date"] {
                guard let date = try? Self.dateStyle.parse(text) else {
                    throw KeyValueError(.invalidDocument, "A $date value is not an ISO 8601 date.")
                }
                self = .date(date)
            } else {
                self = .dictionary(try members.mapValues(KeyValue.init(json:)))
            }
        }
    }

    /// Whether the value can be written as JSON: every number in it is finite.
    var isRepresentableAsJSON: Bool {
        switch self {
        case .double(let value): value.isFinite
        case .array(let values): values.allSatisfy(\.isRepresentableAsJSON)
        case .dictionary(let values): values.values.allSatisfy(\.isRepresentableAsJSON)
        case .bool, .integer, .string, .data, .date: true
        }
    }

    /// Refuses a value that cannot be written as JSON.
    /// - Parameter subject: What holds the value, for the message, such as `The value of "speed"`.
    /// - Throws: ``KeyValueError`` (`invalidValue`) when a number in it is NaN or infinite.
    func checkRepresentable(_ subject: String) throws {
        guard isRepresentableAsJSON else {
            throw KeyValueError(
                .invalidValue,
                "\(subject) holds a number that is not finite (NaN or an infinity), which JSON cannot hold.")
        }
    }

    /// The value as a number, for the highest and lowest rules.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}

extension KeyValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A ``bool(_:)`` value from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An ``integer(_:)`` value from an integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A ``double(_:)`` value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A ``string(_:)`` value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An ``array(_:)`` value from an array literal, elements in order.
    public init(arrayLiteral elements: KeyValue...) { self = .array(elements) }
    /// A ``dictionary(_:)`` value from a dictionary literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, KeyValue)...) {
        self = .dictionary(Dictionary(elements) { _, last in last })
    }
}
