import Foundation
import Stratus
import StratusAdapterKit

@testable import StratusKeyValue
@testable import StratusSync
@testable import StratusWebDAV

/// libFuzzer's callback. With `STRATUS_FUZZ_TARGET` set, every input goes to that reader;
/// otherwise the first byte picks one and the rest is its input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data, count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: count)
    if let target = ParserTarget.chosen {
        target.run(Data(bytes))
    } else {
        ParserTarget.allCases[Int(bytes[0]) % ParserTarget.allCases.count].run(Data(bytes.dropFirst()))
    }
    return 0
}

/// The readers of documents that come from a server or from disk: XML (S3, WebDAV), a WebDAV
/// PROPFIND answer, JSON read by `JSONReader`, a sync record document and the key-value
/// store's document inside one.
///
/// Besides crashing, hanging or running out of memory, a target fails (`fatalError`) when a
/// document it accepted does not come back the same after being written and read again.
enum ParserTarget: String, CaseIterable {
    case xmlTree, webdavMultistatus, jsonReader, recordDocument, keyValueDocument

    /// The target named by `STRATUS_FUZZ_TARGET`, if any.
    static let chosen: ParserTarget? = ProcessInfo.processInfo.environment["STRATUS_FUZZ_TARGET"].flatMap(
        ParserTarget.init)

    func run(_ data: Data) {
        switch self {
        case .xmlTree:
            if let tree = try? XMLTree.parse(data), Self.depth(of: tree) > XMLTree.maximumDepth {
                fatalError("XMLTree accepted a document nested deeper than its limit")
            }
        case .webdavMultistatus:
            Self.readMultistatus(data)
        case .jsonReader:
            Self.readJSON(data)
        case .recordDocument:
            Self.readRecordDocument(data)
        case .keyValueDocument:
            Self.readKeyValueDocument(data)
        }
    }

    /// How deep a tree nests (the root alone is 1); iterative, so a deep tree cannot overflow
    /// the harness's own stack.
    private static func depth(of tree: XMLTree) -> Int {
        var deepest = 0
        var pending = [(tree, 1)]
        while let (element, level) = pending.popLast() {
            deepest = max(deepest, level)
            pending.append(contentsOf: element.children.map { ($0, level + 1) })
        }
        return deepest
    }

    /// A PROPFIND answer as the adapter reads it: the entries, each mapped to a path below the
    /// root and to a file, and the error readers of 207 answers.
    private static func readMultistatus(_ data: Data) {
        if let entries = try? WebDAVEntry.parse(data, action: "fuzz") {
            for entry in entries {
                let path = Services.webDAV.relativePath(forHref: entry.href) ?? .root
                _ = Services.webDAV.file(path, from: entry)
                _ = WebDAVProperties.history(entry.history)
            }
        }
        _ = WebDAVErrorMapping.multistatusFailure(data, action: "fuzz", secrets: ["fuzz-secret"])
        _ = WebDAVErrorMapping.message(in: data, secrets: ["fuzz-secret"])
    }

    /// Every value of a JSON document read through ``JSONReader``, scalars read both as what
    /// they are and as what a caller might wrongly expect.
    private static func readJSON(_ data: Data) {
        func value(_ reader: inout JSONReader) throws(JSONReadError) {
            switch try reader.peek() {
            case .object:
                try reader.readObject { _, reader throws(JSONReadError) in try value(&reader) }
            case .array:
                try reader.readArray { reader throws(JSONReadError) in try value(&reader) }
            case .string:
                _ = try reader.readString()
            case .number:
                if (try? reader.readInt64()) == nil { _ = try reader.readDouble() }
            case .bool:
                _ = try reader.readBool()
            case .null:
                _ = try reader.readStringUnlessNull()
            }
        }
        _ = try? JSONReader.read(data) { reader throws(JSONReadError) in try value(&reader) }
        _ = try? JSONReader.read(data) { reader throws(JSONReadError) in try reader.skipValue() }
    }

    /// A record document as a pull reads it; one it accepts must write the same bytes after a
    /// second read (what a device writes back, another device reads unchanged).
    private static func readRecordDocument(_ data: Data) {
        compareWithJSONDecoder(data)
        guard let document = try? RecordDocument.decode(data, expectedKey: nil) else { return }
        do {
            let written = try document.encoded()
            let again = try RecordDocument.decode(written, expectedKey: document.key)
            guard try again.encoded() == written else {
                fatalError("a record document read back writes different bytes")
            }
        } catch {
            fatalError("a record document that was read cannot be written and read again: \(error)")
        }
    }

    /// The key-value store's document: the value of a record document, or, for input that is no
    /// record document, the JSON itself. One it accepts must say the same after a second read.
    private static func readKeyValueDocument(_ data: Data) {
        let json: JSONValue
        if let document = try? RecordDocument.decode(data, expectedKey: nil) {
            json = document.value
        } else if let value = try? JSONValue.read(data) {
            json = value
        } else {
            return
        }
        guard let document = try? KeyValueDocument(json: json) else { return }
        _ = document.usedBytes
        _ = document.liveKeyCount
        for entry in document.entries.values { _ = entry.current }
        do {
            let again = try KeyValueDocument(json: document.json)
            guard again.json == document.json else {
                fatalError("a key-value document read back says something else")
            }
        } catch {
            fatalError("a key-value document that was read cannot be read again: \(error)")
        }
    }
}

extension ParserTarget {
    /// Checks that the record document's JSON reader reads what `JSONDecoder` reads into a
    /// `JSONValue`, and refuses only what JSON does not allow (`JSONDecoder` is slow on deep
    /// text, so that is compared up to 64 brackets).
    fileprivate static func compareWithJSONDecoder(_ data: Data) {
        guard data.count <= 16_384,
            data.lazy.filter({ $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }).count <= 64
        else { return }
        let theirs = try? JSONCoding.decoder.decode(JSONValue.self, from: data)
        switch Result(catching: { () throws(JSONReadError) in try JSONValue.read(data) }) {
        case .success(let mine):
            guard let theirs else { fatalError("JSONValue.read read text JSONDecoder refuses") }
            guard mine == theirs else { fatalError("JSONValue.read read \(mine) where JSONDecoder reads \(theirs)") }
        case .failure(let error):
            guard theirs != nil, !isDeliberateRefusal(data, error) else { return }
            fatalError("JSONValue.read refused text JSONDecoder reads: \(error)")
        }
    }

    /// What JSONValue.read refuses on purpose where JSONDecoder is lenient: text that is not
    /// UTF-8 (JSONDecoder also reads UTF-16 and UTF-32), a trailing comma, and anything
    /// malformed that JSONDecoder never looks at (it checks a string or a number only when it
    /// decodes it, and skips the value of a repeated member name), which JSONSerialization, which
    /// checks everything, refuses too.
    private static func isDeliberateRefusal(_ data: Data, _ error: JSONReadError) -> Bool {
        if String(validating: data, as: UTF8.self) == nil || data.contains(0) { return true }
        if (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) == nil { return true }
        guard error.expectation == "a value" || error.expectation == "a member name" else { return false }
        let before = data.prefix(error.offset).reversed().first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return before == UInt8(ascii: ",")
    }
}

/// Services whose reading helpers need an instance.
enum Services {
    static let webDAV: WebDAVService = {
        guard let url = URL(string: "http://127.0.0.1:9/dav/"),
            let configuration = try? WebDAVConfiguration(
                url: url, credentials: WebDAVCredentials(user: "fuzz", password: "fuzz-secret")),
            let service = try? WebDAVService(configuration: configuration)
        else { fatalError("the fuzz harness could not make its WebDAV service") }
        return service
    }()
}
