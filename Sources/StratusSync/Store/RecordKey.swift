/// Names one record: its type (such as `"save"`) and its id within the type (such as `"slot-1"`).
///
/// Both are non-empty, at most 200 UTF-8 bytes, without control characters. Any other text is
/// fine: the remote layout encodes names that a provider might mangle (see <doc:RemoteFormat>).
public struct RecordKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The most UTF-8 bytes in a type or an id.
    public static let maximumLength = 200

    /// The record's type; each type has its own conflict policy.
    public let type: String
    /// The record's id within its type.
    public let id: String

    /// Creates a key.
    /// - Throws: ``SyncError`` (`invalidKey`) for an empty or over-long name, or one with a
    ///   control character.
    public init(type: String, id: String) throws {
        try Self.validate(type, "type")
        try Self.validate(id, "id")
        self.type = type
        self.id = id
    }

    private static func validate(_ name: String, _ role: String) throws {
        guard !name.isEmpty else { throw SyncError(.invalidKey, "A record \(role) may not be empty.") }
        guard name.utf8.count <= maximumLength else {
            throw SyncError(
                .invalidKey,
                "The record \(role) is \(name.utf8.count) bytes long; at most \(maximumLength) are allowed.")
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw SyncError(.invalidKey, "The record \(role) \(name.debugDescription) contains a control character.")
        }
    }

    /// Decodes a `{"type": …, "id": …}` object and validates both names as ``init(type:id:)`` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            type: container.decode(String.self, forKey: .type), id: container.decode(String.self, forKey: .id))
    }

    /// The key as `type/id`, such as `save/slot-1`.
    public var description: String { "\(type)/\(id)" }

    /// Orders by type, then by id, comparing the strings.
    public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
        (lhs.type, lhs.id) < (rhs.type, rhs.id)
    }
}
