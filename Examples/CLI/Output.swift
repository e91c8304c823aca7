import Foundation
import Stratus

/// Writes a command's result: text for a person, or one JSON document with stable keys.
enum Output {
    /// Prints `value` as one pretty JSON document with sorted keys and ISO 8601 dates.
    static func json<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Prints `value` as JSON on one line, for streams of documents (`changes --follow`).
    static func jsonLine<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Prints a line of text to standard output at once (not buffered, so pipes see it).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Prints a line to standard error.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A hash as `algorithm:hex-prefix…` for text output.
    static func short(_ hash: ContentHash?) -> String {
        guard let hash else { return "-" }
        return "\(hash.algorithm.rawValue):\(hash.value.prefix(12))"
    }

    /// A date in ISO 8601, as in JSON output.
    static func date(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// A file in JSON output.
struct FileDocument: Encodable {
    var path: String
    var id: String
    var size: Int64
    var modified: Date
    var contentHash: String?
    var version: String
    var metadata: [String: String]

    init(_ file: RemoteFile) {
        path = file.path.string
        id = file.id
        size = file.size
        modified = file.modified
        contentHash = file.contentHash?.description
        version = file.version.rawValue
        metadata = file.metadata
    }

    enum CodingKeys: String, CodingKey {
        case path, id, size, modified, version, metadata
        case contentHash = "content_hash"
    }
}

/// A version in JSON output.
struct VersionDocument: Encodable {
    var id: String
    var size: Int64
    var modified: Date
    var contentHash: String?
    var current: Bool

    init(_ version: FileVersion, current: Bool) {
        id = version.id.rawValue
        size = version.size
        modified = version.modified
        contentHash = version.contentHash?.description
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case id, size, modified, current
        case contentHash = "content_hash"
    }
}

/// A change in JSON output: `{"kind": "upserted", "path": ..., "file": {...}}` or
/// `{"kind": "deleted", "path": ...}`.
struct ChangeDocument: Encodable {
    var kind: String
    var path: String
    var file: FileDocument?

    init(_ change: Change) {
        switch change {
        case .upserted(let file):
            kind = "upserted"
            path = file.path.string
            self.file = FileDocument(file)
        case .deleted(let path):
            kind = "deleted"
            self.path = path.string
            file = nil
        }
    }
}

/// An error in JSON output: `{"error": {"kind": ..., "message": ..., "next_step": ..., "exit_status": ...}}`.
struct ErrorDocument: Encodable {
    struct Body: Encodable {
        var kind: String
        var message: String
        var nextStep: String?
        var exitStatus: Int32

        enum CodingKeys: String, CodingKey {
            case kind, message
            case nextStep = "next_step"
            case exitStatus = "exit_status"
        }
    }

    var error: Body

    init(_ failure: CLIFailure) {
        error = Body(
            kind: failure.kind, message: failure.message, nextStep: failure.nextStep,
            exitStatus: failure.status.rawValue)
    }
}
