import NIOCore
import StratusHTTP

/// The fields of an `application/x-www-form-urlencoded` body or a URL query, in order.
///
/// ```swift
/// let form = try FormFields(parsing: "grant_type=refresh_token&scope=a+b")
/// form["scope"]  // "a b"
/// ```
public struct FormFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were sent, names and values decoded.
    public private(set) var fields: [NamedValue]

    /// Creates a list from pairs, in order.
    /// - Parameter fields: The fields.
    public init(_ fields: [NamedValue] = []) {
        self.fields = fields
    }

    /// Creates a list from a literal, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { NamedValue($0.0, $0.1) }
    }

    /// Parses encoded text such as `a=1&b=two+words&c=%26`.
    ///
    /// `+` is a space, `%XX` is a byte; a piece without `=` is a field with an empty value and
    /// empty pieces (`a=1&&b=2`) are skipped.
    /// - Parameter text: The body or the query (without the `?`).
    /// - Throws: ``/StratusHTTP/PercentEncoding/DecodingError`` when an escape is broken or not UTF-8.
    public init(parsing text: some StringProtocol) throws(PercentEncoding.DecodingError) {
        var fields: [NamedValue] = []
        for piece in String(text).split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = piece.firstIndex(of: "=") {
                name = piece[..<equals]
                value = piece[piece.index(after: equals)...]
            } else {
                name = piece
                value = ""
            }
            fields.append(
                NamedValue(
                    try PercentEncoding.decode(name, plusAsSpace: true),
                    try PercentEncoding.decode(value, plusAsSpace: true)
                ))
        }
        self.fields = fields
    }

    /// Parses an encoded body.
    /// - Parameter buffer: The body's bytes.
    /// - Throws: ``/StratusHTTP/PercentEncoding/DecodingError`` when an escape is broken or not UTF-8.
    public init(parsing buffer: ByteBuffer) throws(PercentEncoding.DecodingError) {
        guard let text = buffer.getString(at: buffer.readerIndex, length: buffer.readableBytes) else {
            throw .notUTF8
        }
        try self.init(parsing: text)
    }

    /// The first value of a field, or `nil`.
    /// - Parameter name: The field's exact name.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every value of a field, in order.
    /// - Parameter name: The field's exact name.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// Names that occur more than once, in order of their first repeat.
    public var repeatedNames: [String] {
        var seen: Set<String> = []
        var repeated: [String] = []
        for field in fields where !seen.insert(field.name).inserted && !repeated.contains(field.name) {
            repeated.append(field.name)
        }
        return repeated
    }

    /// Appends a field.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(NamedValue(name, value))
    }

    /// The fields encoded as `name=value&...`, every reserved character escaped (spaces as
    /// `%20`), ready for a query string or a form body.
    public var encoded: String {
        fields.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
            .joined(separator: "&")
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[NamedValue]> {
        fields.makeIterator()
    }
}
