import Foundation

/// An element of a request body the mock reads (PROPFIND, PROPPATCH, LOCK), with its namespace
/// resolved: `{DAV:}prop` for `<d:prop xmlns:d="DAV:">`.
struct NextcloudXMLElement: Sendable, Equatable {
    /// `{namespace}local-name`.
    var name: String
    var text = ""
    var children: [NextcloudXMLElement] = []

    func child(_ name: String) -> NextcloudXMLElement? { children.first { $0.name == name } }
    func children(_ name: String) -> [NextcloudXMLElement] { children.filter { $0.name == name } }

    /// Every descendant (itself included) with a name.
    func descendants(_ name: String) -> [NextcloudXMLElement] {
        (self.name == name ? [self] : []) + children.flatMap { $0.descendants(name) }
    }
}

/// A small reader for the request bodies WebDAV clients send: elements, attributes (for
/// namespace declarations), text with the predefined entities and character references, and
/// comments. Anything else (a document type, a processing instruction other than the XML
/// declaration) is refused, so no entity expands. Never recurses.
enum NextcloudXMLReader {
    struct Malformed: Error {}

    static func read(_ data: Data) throws -> NextcloudXMLElement {
        let bytes = Array(data)
        var index = 0
        var stack: [(element: NextcloudXMLElement, qualified: String, namespaces: [String: String])] = []
        var root: NextcloudXMLElement?
        func namespaces() -> [String: String] {
            stack.last?.namespaces ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
        }
        func resolve(_ qualified: String, _ scope: [String: String]) -> String {
            let parts = qualified.split(separator: ":", maxSplits: 1).map(String.init)
            if parts.count == 2 { return "{\(scope[parts[0]] ?? parts[0])}\(parts[1])" }
            return "{\(scope[""] ?? "")}\(qualified)"
        }
        while index < bytes.count {
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                var end = index + 4
                while end + 3 <= bytes.count, !bytes[end..<(end + 3)].elementsEqual(Array("-->".utf8)) { end += 1 }
                guard end + 3 <= bytes.count else { throw Malformed() }
                index = end + 3
                continue
            }
            if bytes[index] == UInt8(ascii: "<") {
                guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { throw Malformed() }
                let tag = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                index = end + 1
                if tag.hasPrefix("?xml") { continue }
                if tag.hasPrefix("!") || tag.hasPrefix("?") { throw Malformed() }
                if tag.hasPrefix("/") {
                    let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                    guard let open = stack.popLast(), open.qualified == name else { throw Malformed() }
                    if stack.isEmpty {
                        root = open.element
                    } else {
                        stack[stack.count - 1].element.children.append(open.element)
                    }
                    continue
                }
                let selfClosing = tag.hasSuffix("/")
                let body = selfClosing ? String(tag.dropLast()) : tag
                let (qualified, attributes) = try parseTag(body)
                var scope = namespaces()
                for (name, value) in attributes {
                    if name == "xmlns" {
                        scope[""] = value
                    } else if name.hasPrefix("xmlns:") {
                        scope[String(name.dropFirst(6))] = value
                    }
                }
                let element = NextcloudXMLElement(name: resolve(qualified, scope))
                guard stack.count < 64 else { throw Malformed() }
                if selfClosing {
                    if stack.isEmpty { root = element } else { stack[stack.count - 1].element.children.append(element) }
                } else {
                    stack.append((element, qualified, scope))
                }
            } else {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                let text = decodeEntities(String(decoding: bytes[index..<end], as: UTF8.self))
                if !stack.isEmpty { stack[stack.count - 1].element.text += text }
                index = end
            }
        }
        guard stack.isEmpty, let root else { throw Malformed() }
        return root
    }

    private static func parseTag(_ tag: String) throws -> (String, [(String, String)]) {
        var rest = Substring(tag)
        let name = rest.prefix { !$0.isWhitespace }
        guard !name.isEmpty else { throw Malformed() }
        rest = rest.dropFirst(name.count)
        var attributes: [(String, String)] = []
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard !rest.isEmpty else { break }
            guard let equals = rest.firstIndex(of: "=") else { throw Malformed() }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { throw Malformed() }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { throw Malformed() }
            attributes.append((key, decodeEntities(String(rest[..<close]))))
            rest = rest[rest.index(after: close)...]
        }
        return (String(name), attributes)
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            switch entity {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "&\(entity);"
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// Text escaped for XML.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
