import Foundation
import MockSupport

/// JSON encoding the way the Dropbox mock writes it: sorted keys, unescaped slashes, and for
/// header values (`Dropbox-API-Result`) every non-ASCII character escaped as `\uXXXX`.
enum DropboxJSON {
    /// JSON text for a value built from dictionaries, arrays, strings, numbers and `NSNull`.
    static func text(_ value: Any) -> String {
        SortedJSONText.make(value) ?? "null"
    }

    /// JSON text safe for an HTTP header: non-ASCII and DEL become `\uXXXX` escapes.
    static func asciiText(_ value: Any) -> String {
        var output = ""
        for unit in text(value).utf16 {
            if unit < 0x7F {
                output.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            } else {
                let digits = String(unit, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            }
        }
        return output
    }
}

/// The arguments of one call, decoded from JSON, with typed accessors that throw
/// ``DropboxFailure/badInput(_:)`` in the words Dropbox uses.
struct DropboxArguments {
    /// The decoded object.
    let object: [String: Any]

    /// Decodes JSON text that must be an object, or `null` (a void argument, read as `{}`).
    /// - Throws: ``DropboxFailure`` (400) when the text is neither.
    init(json data: Data, route: String, source: String) throws(DropboxFailure) {
        let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        // `null` is how the SDKs send the argument of a route whose argument type is void.
        guard let object = value is NSNull ? [:] : value as? [String: Any] else {
            throw .badInput("Error in call to API function \"\(route)\": \(source): could not decode input as JSON")
        }
        self.object = object
        self.route = route
        self.source = source
    }

    private let route: String
    private let source: String

    private func bad(_ field: String, _ message: String) -> DropboxFailure {
        .badInput("Error in call to API function \"\(route)\": \(source): \(field): \(message)")
    }

    /// A required string field.
    func string(_ field: String) throws(DropboxFailure) -> String {
        guard let raw = object[field], !(raw is NSNull) else { throw bad(field, "missing required field") }
        guard let value = raw as? String else { throw bad(field, "expected string, got \(Self.kind(raw))") }
        return value
    }

    /// An optional string field.
    func optionalString(_ field: String) throws(DropboxFailure) -> String? {
        guard let raw = object[field], !(raw is NSNull) else { return nil }
        guard let value = raw as? String else { throw bad(field, "expected string, got \(Self.kind(raw))") }
        return value
    }

    /// A boolean field with a default.
    func bool(_ field: String, default value: Bool) throws(DropboxFailure) -> Bool {
        guard let raw = object[field], !(raw is NSNull) else { return value }
        guard let number = raw as? NSNumber, isJSONBoolean(number) else {
            throw bad(field, "expected boolean, got \(Self.kind(raw))")
        }
        return number.boolValue
    }

    /// An unsigned integer field with a default and bounds.
    func integer(_ field: String, default value: Int64?, range: ClosedRange<Int64>) throws(DropboxFailure) -> Int64? {
        guard let raw = object[field], !(raw is NSNull) else { return value }
        guard let number = raw as? NSNumber, !isJSONBoolean(number),
            let integer = Int64(exactly: number.doubleValue)
        else {
            throw bad(field, "expected integer, got \(Self.kind(raw))")
        }
        guard range.contains(integer) else {
            throw bad(field, "\(integer) is not within \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    /// A nested object field.
    func nested(_ field: String) throws(DropboxFailure) -> DropboxArguments {
        guard let raw = object[field], !(raw is NSNull) else { throw bad(field, "missing required field") }
        guard let value = raw as? [String: Any] else { throw bad(field, "expected object, got \(Self.kind(raw))") }
        return DropboxArguments(object: value, route: route, source: "\(source): \(field)")
    }

    /// A required list of objects, such as a batch's `entries`.
    /// - Parameter maxItems: The most items the list may hold.
    /// - Throws: ``DropboxFailure`` (400) when the field is missing, not a list, holds something
    ///   other than objects, or holds more than `maxItems`.
    func objects(_ field: String, maxItems: Int) throws(DropboxFailure) -> [DropboxArguments] {
        guard let raw = object[field], !(raw is NSNull) else { throw bad(field, "missing required field") }
        guard let list = raw as? [Any] else { throw bad(field, "expected list, got \(Self.kind(raw))") }
        guard list.count <= maxItems else {
            throw bad(field, "list has \(list.count) items, more than the maximum of \(maxItems)")
        }
        var items: [DropboxArguments] = []
        items.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            guard let value = item as? [String: Any] else {
                throw bad("\(field)[\(index)]", "expected object, got \(Self.kind(item))")
            }
            items.append(DropboxArguments(object: value, route: route, source: "\(source): \(field)[\(index)]"))
        }
        return items
    }

    /// A union field: its tag and, for a member with a value, the object holding it. A bare
    /// string is a void member.
    func union(_ field: String, default tag: String) throws(DropboxFailure) -> (tag: String, value: [String: Any]) {
        guard let raw = object[field], !(raw is NSNull) else { return (tag, [:]) }
        if let bare = raw as? String { return (bare, [:]) }
        guard let value = raw as? [String: Any], let tag = value[".tag"] as? String else {
            throw bad(field, "expected union")
        }
        return (tag, value)
    }

    /// A 400 bad-input failure about one field, worded as Dropbox words it.
    func fail(_ field: String, _ message: String) -> DropboxFailure {
        bad(field, message)
    }

    private init(object: [String: Any], route: String, source: String) {
        self.object = object
        self.route = route
        self.source = source
    }

    private static func kind(_ value: Any) -> String {
        switch value {
        case is String: "string"
        case let number as NSNumber: isJSONBoolean(number) ? "boolean" : "number"
        case is [Any]: "list"
        case is [String: Any]: "object"
        default: "null"
        }
    }
}

/// Whether an `NSNumber` decoded from JSON is a boolean: JSON decoding makes booleans with
/// the `char`/`bool` type encoding and numbers with a wider one.
func isJSONBoolean(_ number: NSNumber) -> Bool {
    let encoding = String(cString: number.objCType)
    return encoding == "c" || encoding == "B"
}
