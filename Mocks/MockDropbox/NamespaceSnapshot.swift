import Foundation
import MockSupport

/// The Dropbox mock's saved state (``PersistentState`` kind `dropbox`, format version 1): every
/// node with its revisions, the id and rev indexes, the change log, the counters and the
/// property templates. Upload sessions are not in it: they end with the process.
///
/// The change log is saved with only each path's newest change, which is all a cursor reads
/// (`list_folder/continue` reports a path at its newest change, and a long poll asks whether
/// any path in scope changed after the cursor, which its newest change answers), so a log of
/// many writes to few paths stays as small as the namespace.
struct NamespaceSnapshot: Codable, Sendable {
    /// The kind of mock in the state file's header.
    static let kind = "dropbox"
    /// The version of this layout; a change to it that old files cannot be read as needs a
    /// new number.
    static let formatVersion = 1

    var nodes: [String: NamespaceNode]
    var pathOfID: [String: String]
    var pathOfRev: [String: String]
    /// The sequence numbers of the change log, ascending; `changeKeys` holds their paths.
    var changeSequences: [Int]
    var changeKeys: [String]
    var sequence: Int
    var epoch: Int
    var revCounter: UInt64
    var idCounter: Int
    var templates: [String: PropertyTemplates.Template]

    /// The snapshot of a state (a copy taken under the namespace's lock) and the templates.
    init(_ state: Namespace.State, templates: [String: PropertyTemplates.Template]) {
        nodes = state.nodes
        pathOfID = state.pathOfID
        pathOfRev = state.pathOfRev
        let newest = state.changes.filter { state.newestChange[$0.key] == $0.sequence }
        changeSequences = newest.map(\.sequence)
        changeKeys = newest.map(\.key)
        sequence = state.sequence
        epoch = state.epoch
        revCounter = state.revCounter
        idCounter = state.idCounter
        self.templates = templates
    }

    /// The namespace state it describes.
    /// - Throws: A description of the inconsistency when the change log does not add up.
    func restoredState() throws(Inconsistency) -> Namespace.State {
        guard changeSequences.count == changeKeys.count else {
            throw Inconsistency(description: "the change log's sequences and paths differ in number")
        }
        guard zip(changeSequences, changeSequences.dropFirst()).allSatisfy({ $0 < $1 }),
            changeSequences.last.map({ $0 <= sequence }) ?? true
        else {
            throw Inconsistency(description: "the change log is not in ascending order up to \(sequence)")
        }
        if let wrong = nodes.first(where: { $0.key != $0.value.path.key }) {
            throw Inconsistency(description: "the node under \(wrong.key) has the path \(wrong.value.path.display)")
        }
        return Namespace.State(
            nodes: nodes, pathOfID: pathOfID, pathOfRev: pathOfRev,
            changes: zip(changeSequences, changeKeys).map { (sequence: $0, key: $1) }, sequence: sequence,
            epoch: epoch, revCounter: revCounter, idCounter: idCounter)
    }

    /// Every blob a revision holds.
    var blobs: [BlobInfo] {
        nodes.values.flatMap { $0.revisions.map(\.blob) }
    }

    /// Why a decoded snapshot cannot be a namespace.
    struct Inconsistency: Error, CustomStringConvertible {
        var description: String
    }
}

extension DropboxPath: Codable {
    /// The display path, as a string.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(display)
    }

    /// Parses a saved display path as a request's path is parsed (the root is `""`).
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text, allowRoot: true)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a path: \(text)")
        }
    }
}

extension PropertyGroupValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case templateID = "template_id"
        case fields
    }

    /// One `name`/`value` field.
    private struct Field: Codable {
        var name: String
        var value: String
    }

    /// `{"template_id": ..., "fields": [{"name": ..., "value": ...}]}`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(templateID, forKey: .templateID)
        try container.encode(fields.map { Field(name: $0.name, value: $0.value) }, forKey: .fields)
    }

    /// Reads what ``encode(to:)`` wrote.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        templateID = try container.decode(String.self, forKey: .templateID)
        fields = try container.decode([Field].self, forKey: .fields).map { (name: $0.name, value: $0.value) }
    }
}

extension PropertyTemplates.Template: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, description, fields
    }

    /// One field: its name and description.
    private struct Field: Codable {
        var name: String
        var description: String
    }

    /// `{"name": ..., "description": ..., "fields": [{"name": ..., "description": ...}]}`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(fields.map { Field(name: $0.name, description: $0.description) }, forKey: .fields)
    }

    /// Reads what ``encode(to:)`` wrote.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decode(String.self, forKey: .description)
        fields = try container.decode([Field].self, forKey: .fields).map {
            (name: $0.name, description: $0.description)
        }
    }
}
