/// One name and value pair: a form field, a query parameter or a recorded header.
public struct NamedValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name, as sent.
    public var name: String
    /// The value, decoded.
    public var value: String

    /// Creates a pair.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name=value`, unencoded, for reading in logs.
    public var description: String { "\(name)=\(value)" }
}
