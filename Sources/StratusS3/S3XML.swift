import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of an S3 XML answer: its name, its text and its child elements.
///
/// S3 answers are small, flat documents (listings, errors, upload results); a tree of these is
/// all the adapter needs, and reading one is bounded by the response size limit of the request.
struct S3XMLElement: Sendable, Equatable {
    var name: String
    var text: String = ""
    var children: [S3XMLElement] = []

    /// The first child with a name.
    func child(_ name: String) -> S3XMLElement? {
        children.first { $0.name == name }
    }

    /// Every child with a name, in document order.
    func children(_ name: String) -> [S3XMLElement] {
        children.filter { $0.name == name }
    }

    /// The text of the first child with a name.
    func value(_ name: String) -> String? {
        child(name)?.text
    }

    /// Parses a document.
    ///
    /// S3 answers are plain UTF-8 documents: elements and text, an XML declaration at most.
    /// Foundation's `XMLParser` crashes the process on a name that is not valid UTF-8 and on a
    /// processing instruction without data (both found by fuzzing), and a document type could
    /// ask for entity expansion, so anything outside that subset is refused before parsing.
    /// - Throws: ``S3XMLError`` when the bytes are not well-formed UTF-8 XML of that subset.
    static func parse(_ data: Data) throws(S3XMLError) -> S3XMLElement {
        guard let text = String(validating: data, as: UTF8.self) else {
            throw S3XMLError(reason: "the answer is not UTF-8 text")
        }
        if let declaration = declaredEncoding(data), !["utf-8", "utf8"].contains(declaration.lowercased()) {
            throw S3XMLError(reason: "the answer declares the encoding \(declaration), not UTF-8")
        }
        guard !afterDeclaration(text).contains("<?"), !text.contains("<!DOCTYPE"), !text.contains("<!ENTITY") else {
            throw S3XMLError(reason: "the answer holds a processing instruction or a document type, which S3 never sends")
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw S3XMLError(reason: parser.parserError.map { "\($0.localizedDescription)" } ?? "the document is empty")
        }
        return root
    }

    /// The text after an XML declaration (`<?xml version="1.0" ...?>`) at the start, or the
    /// whole text when there is none. Anything else that starts with `<?xml` (such as
    /// `<?xml?>`) is not a declaration, and stays in.
    private static func afterDeclaration(_ text: String) -> Substring {
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return Substring(text) }
        let inside = text[text.index(text.startIndex, offsetBy: 5)..<end.lowerBound]
        guard let first = inside.first, first == " " || first == "\t" || first == "\r" || first == "\n",
              inside.contains("version"), !inside.contains("<"), !inside.contains(">")
        else { return Substring(text) }
        return text[end.upperBound...]
    }

    /// The `encoding` of an XML declaration at the start of a document, if any.
    private static func declaredEncoding(_ data: Data) -> String? {
        let head = String(decoding: data.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
        let declaration = head[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }
}

/// A document that could not be read as XML.
struct S3XMLError: Error, Sendable {
    var reason: String
}

/// Builds the element tree from parser callbacks; used by one parse on one thread only.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [S3XMLElement] = []
    private(set) var root: S3XMLElement?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        stack.append(S3XMLElement(name: elementName))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }
}
