import Foundation

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

    /// Parses a document with ``S3XMLReader``.
    /// - Throws: ``S3XMLError`` when the bytes are not well-formed UTF-8 XML of the subset S3
    ///   sends (no processing instructions, no document type).
    static func parse(_ data: Data) throws(S3XMLError) -> S3XMLElement {
        guard String(validating: data, as: UTF8.self) != nil else {
            throw S3XMLError(reason: "the answer is not UTF-8 text")
        }
        return try S3XMLReader.read(Array(data))
    }
}

/// A document that could not be read as XML.
struct S3XMLError: Error, Sendable {
    var reason: String
}
