import Foundation

/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Its description redacts secrets (see ``Redaction``), so headers can be logged as they are.
public struct StratusHTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible
{
    /// The fields in order, names as given.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty list.
    public init() { self.fields = [] }

    /// Creates a list from name and value pairs, in order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Creates a list from a literal such as `["Accept": "text/plain"]`, fields in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of a field, or `nil`.
    /// - Parameter name: The field name, in any case.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of a field, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any earlier ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of this name with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of this name.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a field of this name is present.
    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    /// Iterates the fields in order as `(name, value)` pairs, names as given and values unredacted.
    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    /// The `Retry-After` field in its delay-seconds form, or `nil` when it is absent, negative, or
    /// an HTTP date.
    public var retryAfterSeconds: Int64? {
        guard let value = self["Retry-After"], let seconds = Int64(value.trimmingCharacters(in: .whitespaces)),
            seconds >= 0
        else {
            return nil
        }
        return seconds
    }

    /// The fields as `Name: value` lines with secret values replaced by `<redacted>`.
    public var description: String {
        fields.map { "\($0.name): \(Redaction.headerValue($0.value, named: $0.name))" }.joined(separator: "\n")
    }

    /// Whether both lists hold the same names and values in the same order; name case and order count.
    public static func == (lhs: StratusHTTPHeaders, rhs: StratusHTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Hashes every name and value in order, matching ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
