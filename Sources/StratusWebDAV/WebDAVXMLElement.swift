import Foundation

/// One element of a WebDAV XML answer: its local name, its text and its child elements.
struct WebDAVXMLElement: Sendable, Equatable {
    var name: String
    var text: String = ""
    var children: [WebDAVXMLElement] = []

    /// The first child with a local name.
    func child(_ name: String) -> WebDAVXMLElement? {
        children.first { $0.name == name }
    }

    /// Every child with a local name, in document order.
    func children(_ name: String) -> [WebDAVXMLElement] {
        children.filter { $0.name == name }
    }

    /// The text of the first child with a local name.
    func value(_ name: String) -> String? {
        child(name)?.text
    }

    /// Parses a document with ``WebDAVXMLReader``.
    /// - Throws: ``WebDAVXMLError`` when the bytes are not well-formed UTF-8 XML of the subset
    ///   WebDAV servers send (no processing instructions, no document type).
    static func parse(_ data: Data) throws(WebDAVXMLError) -> WebDAVXMLElement {
        guard String(validating: data, as: UTF8.self) != nil else {
            throw WebDAVXMLError(reason: "the answer is not UTF-8 text")
        }
        return try WebDAVXMLReader.read(Array(data))
    }
}

/// A document that could not be read as XML.
struct WebDAVXMLError: Error, Sendable {
    var reason: String
}

/// Writes the text of XML request bodies.
enum WebDAVXMLText {
    /// Text with `&`, `<`, `>`, `"` and `'` escaped, and characters XML 1.0 cannot carry
    /// (controls other than tab, LF, CR) refused by the caller's validation beforehand.
    static func escaped(_ text: String) -> String {
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
