/// Reads the XML that storage services answer with (S3, WebDAV) into a tree of ``XMLTree``,
/// over UTF-8 bytes.
///
/// The subset is what S3-compatible and WebDAV servers send: an optional XML declaration (UTF-8
/// only),
/// elements with attributes, character data with the five predefined entities and character
/// references, CDATA sections and comments. Processing instructions and document types are
/// refused, so no entity can expand. Names lose their prefix (`s3:Key` reads as `Key`) and keep
/// the namespace it is bound to by `xmlns` attributes in scope (XML Namespaces 1.0). The reader never recurses and keeps one frame per open
/// element up to ``maximumDepth``, so memory stays proportional to the (size-limited) answer.
///
/// Written for Stratus because Foundation's `XMLParser` crashed on some malformed input and
/// leaked memory on every malformed document (both found by fuzzing).
struct XMLTreeReader {
    /// The deepest nesting accepted; S3 answers are three or four levels
    /// deep, WebDAV multistatus answers five or six.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    /// The open elements, innermost last, each with its name as written (for its end tag) and
    /// the namespace bindings in scope inside it.
    private var stack: [(element: XMLTree, qualifiedName: String, namespaces: [String: String])] = []

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads a whole document.
    /// - Throws: ``XMLTreeError`` naming what is wrong and where.
    static func read(_ bytes: [UInt8]) throws(XMLTreeError) -> XMLTree {
        var reader = XMLTreeReader(bytes)
        return try reader.document()
    }

    private mutating func document() throws(XMLTreeError) -> XMLTree {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if starts(with: "<?xml"), index + 5 < bytes.count, Self.isSpace(bytes[index + 5]) {
            try declaration()
        }
        try skipMisc()
        guard starts(with: "<"), !starts(with: "</") else { throw problem("no root element") }
        var root: XMLTree?
        while root == nil {
            guard index < bytes.count else {
                throw problem("the document ends inside <\(stack.last?.qualifiedName ?? "")>")
            }
            if starts(with: "</") {
                root = try endTag()
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<![CDATA[") {
                try cdata()
            } else if starts(with: "<?") || starts(with: "<!") {
                throw problem("a processing instruction or document type, which storage servers never send")
            } else if bytes[index] == UInt8(ascii: "<") {
                root = try startTag()
            } else {
                try characterData()
            }
        }
        try skipMisc()
        guard index == bytes.count else { throw problem("content after the root element") }
        guard let root else { throw problem("no root element") }
        return root
    }

    // MARK: Markup

    /// `<?xml version="1.0" encoding="UTF-8"?>`: checks the version is there and the encoding,
    /// if named, is UTF-8.
    private mutating func declaration() throws(XMLTreeError) {
        guard let end = find("?>") else { throw problem("an unterminated XML declaration") }
        let inside = String(decoding: bytes[(index + 5)..<end], as: UTF8.self)
        guard inside.contains("version") else { throw problem("an XML declaration without a version") }
        if let encoding = Self.attributeValue("encoding", in: inside),
            !["utf-8", "utf8"].contains(encoding.lowercased())
        {
            throw XMLTreeError(reason: "the answer declares the encoding \(encoding), not UTF-8")
        }
        index = end + 2
    }

    /// `<Name attribute="value" ...>` or `<Name .../>`; returns the element when that closed the
    /// root.
    private mutating func startTag() throws(XMLTreeError) -> XMLTree? {
        index += 1
        let name = try self.name()
        var namespaces = stack.last?.namespaces ?? Self.predefinedNamespaces
        while true {
            skipSpace()
            guard index < bytes.count else { throw problem("the document ends inside <\(name)>") }
            let closes = starts(with: "/>")
            if closes || bytes[index] == UInt8(ascii: ">") {
                index += closes ? 2 : 1
                let element = XMLTree(
                    name: Self.localName(name), namespace: namespaces[Self.prefix(name)] ?? "")
                if closes { return close(element) }
                guard stack.count < Self.maximumDepth else {
                    throw problem("elements nested deeper than \(Self.maximumDepth)")
                }
                stack.append((element, name, namespaces))
                return nil
            }
            let (attribute, value) = try self.attribute()
            if attribute == "xmlns" {
                namespaces[""] = value
            } else if attribute.hasPrefix("xmlns:") {
                namespaces[String(attribute.dropFirst(6))] = value
            }
        }
    }

    /// `</Name>`; it must close the innermost open element.
    private mutating func endTag() throws(XMLTreeError) -> XMLTree? {
        index += 2
        let name = try self.name()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw problem("a malformed end tag </\(name)")
        }
        index += 1
        guard let open = stack.popLast(), open.qualifiedName == name else {
            throw problem("</\(name)> closes no open element of that name")
        }
        return close(open.element)
    }

    /// Hangs a finished element on its parent; returns it when it is the root.
    private mutating func close(_ element: XMLTree) -> XMLTree? {
        guard !stack.isEmpty else { return element }
        stack[stack.count - 1].element.children.append(element)
        return nil
    }

    /// `name = "value"` (or single quotes): the name and the value with references replaced.
    private mutating func attribute() throws(XMLTreeError) -> (String, String) {
        let name = try self.name()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw problem("an attribute without a value")
        }
        index += 1
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw problem("an attribute value without quotes")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            guard bytes[index] != UInt8(ascii: "<") else { throw problem("a '<' inside an attribute value") }
            if bytes[index] == UInt8(ascii: "&") {
                value.append(contentsOf: try reference().utf8)
            } else {
                value.append(bytes[index])
                index += 1
            }
        }
        guard index < bytes.count else { throw problem("an unterminated attribute value") }
        index += 1
        return (name, String(decoding: value, as: UTF8.self))
    }

    /// A name: anything up to a space, `/`, `>`, `=` or markup character; never empty.
    private mutating func name() throws(XMLTreeError) -> String {
        let start = index
        while index < bytes.count, !Self.endsName(bytes[index]) { index += 1 }
        guard index > start else { throw problem("a missing name") }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        // XML names never start with a digit, a hyphen, a full stop or a colon.
        guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[start]),
            ![UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":")].contains(bytes[start])
        else {
            throw problem("the name \(name) does not start with a letter")
        }
        return name
    }

    private mutating func comment() throws(XMLTreeError) {
        guard let end = find("-->", from: index + 4) else { throw problem("an unterminated comment") }
        index = end + 3
    }

    private mutating func cdata() throws(XMLTreeError) {
        guard !stack.isEmpty else { throw problem("text outside the root element") }
        let start = index + 9
        guard let end = find("]]>", from: start) else { throw problem("an unterminated CDATA section") }
        appendText(String(decoding: bytes[start..<end], as: UTF8.self))
        index = end + 3
    }

    // MARK: Character data

    /// Text up to the next `<`, with references replaced and line ends normalised to LF.
    private mutating func characterData() throws(XMLTreeError) {
        var text: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            switch bytes[index] {
            case UInt8(ascii: "&"):
                text.append(contentsOf: try reference().utf8)
            case UInt8(ascii: "\r"):
                text.append(UInt8(ascii: "\n"))
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
            default:
                text.append(bytes[index])
                index += 1
            }
        }
        guard !stack.isEmpty else {
            guard text.allSatisfy(Self.isSpace) else { throw problem("text outside the root element") }
            return
        }
        appendText(String(decoding: text, as: UTF8.self))
    }

    /// `&name;` for the five predefined entities, `&#NNN;` or `&#xHHH;` for a character.
    private mutating func reference() throws(XMLTreeError) -> String {
        guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw problem("an '&' that starts no reference")
        }
        let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        switch body {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let number: UInt32? =
                if body.hasPrefix("#x") {
                    UInt32(body.dropFirst(2), radix: 16)
                } else if body.hasPrefix("#") {
                    UInt32(body.dropFirst(1), radix: 10)
                } else {
                    nil
                }
            guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
                throw problem("the reference &\(body); names no character S3 could send")
            }
            return String(Character(scalar))
        }
    }

    private mutating func appendText(_ text: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].element.text += text
    }

    // MARK: Scanning

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    /// Spaces and comments before or after the root.
    private mutating func skipMisc() throws(XMLTreeError) {
        while true {
            skipSpace()
            guard starts(with: "<!--") else { return }
            try comment()
        }
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: count)
        return bytes[index..<(index + count)].elementsEqual(pattern)
    }

    /// Where `text` next starts, from `start` (default: here).
    private func find(_ text: StaticString, from start: Int? = nil) -> Int? {
        let pattern = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        var position = start ?? index
        while position + pattern.count <= bytes.count {
            if bytes[position] == pattern[0], bytes[position..<(position + pattern.count)].elementsEqual(pattern) {
                return position
            }
            position += 1
        }
        return nil
    }

    private func problem(_ reason: String) -> XMLTreeError {
        XMLTreeError(reason: "\(reason) (at byte \(index))")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=")
            || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'")
    }

    /// The `xml` prefix is bound without a declaration (XML Namespaces 1.0, section 3).
    private static let predefinedNamespaces = ["xml": "http://www.w3.org/XML/1998/namespace"]

    /// `s3` for `s3:Key`; empty (the default namespace) for `Key`.
    private static func prefix(_ name: String) -> String {
        guard let colon = name.firstIndex(of: ":") else { return "" }
        return String(name[..<colon])
    }

    /// `Key` for `s3:Key`.
    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// The value of `key="value"` (or single quotes) in a declaration.
    private static func attributeValue(_ key: String, in text: String) -> String? {
        guard let range = text.range(of: key) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }
}
