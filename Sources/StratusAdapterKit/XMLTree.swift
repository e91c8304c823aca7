public import Foundation

/// One element of an XML document: its local name, its namespace, its text and its child
/// elements.
///
/// Storage answers (S3 listings and errors, WebDAV multistatus) are small documents; a tree of
/// these is all an adapter needs, and reading one is bounded by the response size limit of the
/// request. ``parse(_:)`` reads a subset of XML 1.0 without document types, so no entity can
/// expand.
public struct XMLTree: Sendable, Equatable {
    /// The element's name without its namespace prefix.
    public var name: String
    /// The namespace name (a URI) the element's prefix, or the default namespace, is bound to in
    /// the document; empty when none is. `d:prop` under `xmlns:d="DAV:"` reads as name `prop`
    /// in namespace `DAV:`. A prefix the document never binds reads as an empty namespace.
    public var namespace: String
    /// The element's text, with character references resolved.
    public var text: String
    /// The child elements, in document order.
    public var children: [XMLTree]

    /// Creates an element.
    /// - Parameters:
    ///   - name: The name without a namespace prefix.
    ///   - namespace: The namespace name; empty for none.
    ///   - text: The text.
    ///   - children: The child elements.
    public init(name: String, namespace: String = "", text: String = "", children: [XMLTree] = []) {
        self.name = name
        self.namespace = namespace
        self.text = text
        self.children = children
    }

    /// The deepest nesting ``parse(_:)`` accepts.
    public static var maximumDepth: Int { XMLTreeReader.maximumDepth }

    /// The first child with a name.
    public func child(_ name: String) -> XMLTree? {
        children.first { $0.name == name }
    }

    /// Every child with a name, in document order.
    public func children(_ name: String) -> [XMLTree] {
        children.filter { $0.name == name }
    }

    /// The first child with a name in a namespace.
    public func child(_ name: String, namespace: String) -> XMLTree? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Every child with a name in a namespace, in document order.
    public func children(_ name: String, namespace: String) -> [XMLTree] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// The text of the first child with a name.
    public func value(_ name: String) -> String? {
        child(name)?.text
    }

    /// Parses a document.
    /// - Throws: ``XMLTreeError`` when the bytes are not well-formed UTF-8 XML of the subset
    ///   storage servers send (no processing instructions, no document type).
    public static func parse(_ data: Data) throws(XMLTreeError) -> XMLTree {
        guard String(validating: data, as: UTF8.self) != nil else {
            throw XMLTreeError(reason: "the answer is not UTF-8 text")
        }
        return try XMLTreeReader.read(Array(data))
    }

    /// Text with `&`, `<`, `>`, `"` and `'` escaped, for XML request bodies; characters XML 1.0
    /// cannot carry (controls other than tab, LF, CR) must be refused before.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}

/// A document that could not be read as XML.
public struct XMLTreeError: Error, Sendable {
    /// What is wrong and where.
    public var reason: String

    /// Creates the error.
    /// - Parameter reason: What is wrong and where.
    public init(reason: String) {
        self.reason = reason
    }
}
