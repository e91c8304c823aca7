import Foundation

/// The record document: one JSON file per record on the remote, written last, as the commit of
/// a record and its files. Its schema is in <doc:RemoteFormat>.
///
/// Fields this version does not know are kept in ``unknownFields`` and written back unchanged,
/// so an older app does not drop what a newer one added.
struct RecordDocument: Hashable, Sendable {
    /// The format version this library writes and reads.
    static let currentFormat: Int64 = 1
    /// The largest record document accepted from a remote: 16 MiB.
    static let maximumSize = 16 * 1_048_576

    var key: RecordKey
    /// A new random id for every local edit: the same edit id means the same write, which is
    /// how a device recognises its own commit after a crash.
    var edit: String
    /// The device that made the edit.
    var device: String
    /// When the edit was made, by the editing device's clock.
    var modified: Date
    /// A deleted record is a document with no value (a tombstone), so the delete has a version
    /// like any edit and can be undone.
    var isDeleted: Bool
    var value: JSONValue
    var files: [String: FileEntry]
    var unknownFields: [String: JSONValue] = [:]

    /// One file of a record: the blob that holds it.
    struct FileEntry: Hashable, Sendable, Codable {
        var sha256: String
        var size: Int64
    }

    /// A new edit id.
    static func newEdit() -> String {
        UUID().uuidString.lowercased()
    }

    private static let knownFields: Set<String> = [
        "format", "type", "id", "edit", "device", "modified", "deleted", "value", "files",
    ]

    /// The document's bytes: sorted keys, so equal documents are equal bytes.
    func encoded() throws -> Data {
        var object = unknownFields
        object["format"] = .integer(Self.currentFormat)
        object["type"] = .string(key.type)
        object["id"] = .string(key.id)
        object["edit"] = .string(edit)
        object["device"] = .string(device)
        object["modified"] = .string(Timestamp.string(from: modified))
        object["deleted"] = .bool(isDeleted)
        if !isDeleted { object["value"] = value }
        var fileObject: [String: JSONValue] = [:]
        for (name, entry) in files {
            fileObject[name] = .object(["sha256": .string(entry.sha256), "size": .integer(entry.size)])
        }
        object["files"] = .object(fileObject)
        return try JSONCoding.encoder.encode(JSONValue.object(object))
    }

    /// Reads a document, checking everything the format promises.
    /// - Parameter expectedKey: The record the document's path names; a document that names
    ///   another record is refused.
    /// - Throws: ``SyncError`` (`invalidDocument` or `unsupportedFormat`).
    static func decode(_ data: Data, expectedKey: RecordKey?) throws -> RecordDocument {
        guard data.count <= maximumSize else {
            throw SyncError(
                .invalidDocument, "The record document is \(data.count) bytes; at most \(maximumSize) are accepted.")
        }
        let root: JSONValue
        do {
            root = try DocumentJSON.read(data)
        } catch {
            throw SyncError(
                .invalidDocument, "The record document is not valid JSON (\(data.count) bytes): \(error.description).")
        }
        guard case .object(let object) = root else {
            throw SyncError(.invalidDocument, "The record document is not a JSON object.")
        }
        guard case .integer(let format)? = object["format"] else {
            throw SyncError(.invalidDocument, "The record document has no integer \"format\".")
        }
        guard format == currentFormat else {
            if format > currentFormat {
                throw SyncError(
                    .unsupportedFormat,
                    "The record document has format \(format); this library reads format \(currentFormat). Update the app to read it."
                )
            }
            throw SyncError(.invalidDocument, "The record document has format \(format), which does not exist.")
        }
        func string(_ name: String) throws -> String {
            guard case .string(let text)? = object[name] else {
                throw SyncError(.invalidDocument, "The record document has no string \"\(name)\".")
            }
            return text
        }
        let key: RecordKey
        do {
            key = try RecordKey(type: string("type"), id: string("id"))
        } catch let error as SyncError where error.code == .invalidKey {
            throw SyncError(.invalidDocument, "The record document names an invalid record: \(error.message)")
        }
        if let expectedKey, key != expectedKey {
            throw SyncError(.invalidDocument, "The record document at the path of \(expectedKey) says it is \(key).")
        }
        let edit = try string("edit")
        let device = try string("device")
        guard let modified = Timestamp.date(from: try string("modified")) else {
            throw SyncError(.invalidDocument, "The record document's \"modified\" is not an ISO 8601 date.")
        }
        guard case .bool(let isDeleted)? = object["deleted"] else {
            throw SyncError(.invalidDocument, "The record document has no boolean \"deleted\".")
        }
        let value = object["value"] ?? .null
        if !isDeleted, object["value"] == nil {
            throw SyncError(.invalidDocument, "The record document has no \"value\".")
        }
        guard case .object(let fileObject)? = object["files"] else {
            throw SyncError(.invalidDocument, "The record document has no \"files\" object.")
        }
        var files: [String: FileEntry] = [:]
        for (name, entry) in fileObject {
            guard FileName.isValid(name) else {
                throw SyncError(
                    .invalidDocument,
                    "The record document names a file \(name.debugDescription), which is not a valid file name.")
            }
            guard case .object(let fields) = entry, case .string(let hash)? = fields["sha256"],
                case .integer(let size)? = fields["size"], size >= 0, BlobHash.isValid(hash)
            else {
                throw SyncError(
                    .invalidDocument,
                    "The record document's file \(name.debugDescription) needs a 64-digit lowercase \"sha256\" and a \"size\" of at least 0."
                )
            }
            files[name] = FileEntry(sha256: hash, size: size)
        }
        return RecordDocument(
            key: key,
            edit: edit,
            device: device,
            modified: modified,
            isDeleted: isDeleted,
            value: isDeleted ? .null : value,
            files: isDeleted ? [:] : files,
            unknownFields: object.filter { !knownFields.contains($0.key) }
        )
    }
}

/// The names of a record's files: non-empty, at most 200 UTF-8 bytes, no control characters.
enum FileName {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}

/// A blob's name: the lowercase hex SHA-256 of its content.
enum BlobHash {
    static func isValid(_ hash: String) -> Bool {
        hash.utf8.count == 64 && hash.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// Reads the JSON of a document from a remote (or from the local database) into a ``JSONValue``
/// in one pass over the bytes, with a stack of its own instead of recursion.
///
/// `JSONDecoder` reads `JSONValue` by trying each kind in turn at every level, which costs time
/// cubic in the nesting: a 1 KB record document nested 500 deep took 1.2 s to read, so a
/// 16 MiB one would stall a sync for hours (found by fuzzing). This reader gives the same value
/// `JSONDecoder` does for any UTF-8 JSON it accepts (integers that fit 64 bits stay integers;
/// a number with a fraction or exponent that is a whole number in range reads as an integer; a
/// repeated member name keeps its first value; at most ``maximumDepth`` levels), and refuses
/// what JSON does not allow even where `JSONDecoder` is lenient: a trailing comma, and text
/// that is not UTF-8.
enum DocumentJSON {
    /// The deepest nesting of arrays and objects accepted, as `JSONDecoder`'s.
    static let maximumDepth = 512

    /// Reads one JSON value, with nothing but white space around it (a UTF-8 byte order mark
    /// may come first).
    /// - Throws: ``DocumentJSONError`` naming what was wrong and where.
    static func read(_ data: Data) throws(DocumentJSONError) -> JSONValue {
        var reader = Reader(bytes: [UInt8](data))
        return try reader.document()
    }

    /// An array or object being read: its values so far and, for an object, the name the next
    /// value belongs to.
    private enum Container {
        case array([JSONValue])
        case object([String: JSONValue], name: String)
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func document() throws(DocumentJSONError) -> JSONValue {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            var open: [Container] = []
            while true {
                // A value starts here: a scalar, an empty container, or the first value of one.
                skipSpace()
                guard index < bytes.count else { throw problem("a value") }
                var value: JSONValue
                switch bytes[index] {
                case UInt8(ascii: "["):
                    // An empty array counts towards the depth too, as in JSONDecoder.
                    guard open.count < maximumDepth else { throw tooDeep() }
                    index += 1
                    skipSpace()
                    if consume(UInt8(ascii: "]")) {
                        value = .array([])
                    } else {
                        open.append(.array([]))
                        continue
                    }
                case UInt8(ascii: "{"):
                    guard open.count < maximumDepth else { throw tooDeep() }
                    index += 1
                    skipSpace()
                    if consume(UInt8(ascii: "}")) {
                        value = .object([:])
                    } else {
                        open.append(.object([:], name: try memberName()))
                        continue
                    }
                case UInt8(ascii: "\""):
                    value = .string(try string())
                case UInt8(ascii: "t"):
                    try literal("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try literal("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try literal("null")
                    value = .null
                default:
                    value = try number()
                }
                // The value is complete: it goes into the innermost open container, which is
                // complete too when a bracket follows, and so on outwards.
                closing: while true {
                    guard let container = open.popLast() else {
                        skipSpace()
                        guard index == bytes.count else { throw problem("nothing after the value") }
                        return value
                    }
                    skipSpace()
                    switch container {
                    case .array(var elements):
                        elements.append(value)
                        if consume(UInt8(ascii: ",")) {
                            open.append(.array(elements))
                            break closing
                        }
                        guard consume(UInt8(ascii: "]")) else { throw problem("',' or ']' in an array") }
                        value = .array(elements)
                    case .object(var members, let name):
                        // A repeated name keeps its first value, as JSONDecoder has it.
                        if members[name] == nil { members[name] = value }
                        if consume(UInt8(ascii: ",")) {
                            open.append(.object(members, name: try memberName()))
                            break closing
                        }
                        guard consume(UInt8(ascii: "}")) else { throw problem("',' or '}' in an object") }
                        value = .object(members)
                    }
                }
            }
        }

        /// `"name" :` before a member's value.
        private mutating func memberName() throws(DocumentJSONError) -> String {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw problem("a member name") }
            let name = try string()
            skipSpace()
            guard consume(UInt8(ascii: ":")) else { throw problem("':' after a member name") }
            return name
        }

        /// A string at the opening quote, escapes resolved; it must be valid UTF-8.
        private mutating func string() throws(DocumentJSONError) -> String {
            index += 1
            let start = index
            var text: [UInt8] = []
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let raw = escaped ? text[...] : bytes[start..<index]
                    guard let string = String(validating: raw, as: UTF8.self) else {
                        throw DocumentJSONError(offset: start, reason: "a string of valid UTF-8")
                    }
                    index += 1
                    return string
                case UInt8(ascii: "\\"):
                    if !escaped {
                        text = Array(bytes[start..<index])
                        escaped = true
                    }
                    index += 1
                    try escape(into: &text)
                case 0x00..<0x20:
                    throw problem("no control character inside a string")
                default:
                    if escaped { text.append(byte) }
                    index += 1
                }
            }
            throw problem("the end of a string")
        }

        /// The escape after a backslash, appended as UTF-8.
        private mutating func escape(into text: inout [UInt8]) throws(DocumentJSONError) {
            guard index < bytes.count else { throw problem("an escape") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                let first = try hexQuad()
                var value = UInt32(first)
                if (0xD800..<0xDC00).contains(first) {
                    guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                        throw problem("the second half of a surrogate pair")
                    }
                    let second = try hexQuad()
                    guard (0xDC00..<0xE000).contains(second) else {
                        throw problem("the second half of a surrogate pair")
                    }
                    value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { throw problem("a character, not a lone surrogate") }
                text.append(contentsOf: String(Character(scalar)).utf8)
            default:
                index -= 1
                throw problem("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
            }
        }

        private mutating func hexQuad() throws(DocumentJSONError) -> UInt16 {
            guard index + 4 <= bytes.count else { throw problem("four hex digits") }
            var value: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw problem("four hex digits")
                }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }

        /// A number as JSON's grammar has it, read as `JSONDecoder` reads one into a
        /// ``JSONValue``: digits alone are an integer when they fit 64 bits; anything else is a
        /// double, or an integer when it is a whole number strictly inside 64 bits' range; a
        /// number too large for a double is refused.
        private mutating func number() throws(DocumentJSONError) -> JSONValue {
            let start = index
            var isInteger = true
            _ = consume(UInt8(ascii: "-"))
            if !consume(UInt8(ascii: "0")) {
                guard digits() > 0 else {
                    index = start
                    throw problem("a value")
                }
            }
            if consume(UInt8(ascii: ".")) {
                isInteger = false
                guard digits() > 0 else { throw problem("digits after a decimal point") }
            }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                isInteger = false
                _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
                guard digits() > 0 else { throw problem("digits in an exponent") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let integer = Int64(text) { return .integer(integer) }
            guard let double = Double(text), double.isFinite else {
                throw DocumentJSONError(offset: start, reason: "a number a double can hold")
            }
            if !isInteger, double > -0x1p63, double < 0x1p63, double.rounded(.towardZero) == double,
                let integer = Int64(exactly: double)
            {
                return .integer(integer)
            }
            return .double(double)
        }

        /// Steps over decimal digits; returns how many.
        private mutating func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }

        private mutating func literal(_ word: StaticString) throws(DocumentJSONError) {
            let count = word.utf8CodeUnitCount
            let matches = word.withUTF8Buffer { expected in
                index + count <= bytes.count && bytes[index..<(index + count)].elementsEqual(expected)
            }
            guard matches else { throw problem("a value") }
            index += count
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private func problem(_ expectation: String) -> DocumentJSONError {
            DocumentJSONError(offset: index, reason: expectation)
        }

        private func tooDeep() -> DocumentJSONError {
            problem("arrays and objects nested at most \(maximumDepth) deep")
        }
    }
}

/// JSON a ``DocumentJSON`` reader refused: what it expected and the byte offset where. It never
/// holds the text itself.
struct DocumentJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset where reading stopped.
    var offset: Int
    /// What was expected there, such as `',' or ']' in an array`.
    var reason: String

    /// `expected <reason> at byte <offset>`.
    var description: String { "expected \(reason) at byte \(offset)" }
}
