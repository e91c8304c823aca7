import Foundation

/// What the store does when a record changed on this device and on the remote since they last
/// agreed. Set one per record type in ``SyncConfiguration/policies``.
///
/// Whatever the policy, the side that loses is never destroyed: the remote side stays in the
/// service's version history, and a local side that is replaced goes to the local archive
/// (``SyncStore/archived(_:)``).
public struct ConflictPolicy: Sendable {
    enum Rule: Sendable {
        case manual
        case keepLocal
        case keepRemote
        case newest
        case merge(@Sendable (MergeInput) throws -> MergeDecision)
    }

    let rule: Rule

    /// Report the conflict and wait for the app (the default: when the store is not sure, the
    /// user decides).
    public static let manual = ConflictPolicy(rule: .manual)
    /// This device's side wins.
    public static let keepLocal = ConflictPolicy(rule: .keepLocal)
    /// The remote side wins.
    public static let keepRemote = ConflictPolicy(rule: .keepRemote)
    /// The side edited last (by the editing devices' clocks) wins; on a tie, the remote side.
    public static let newest = ConflictPolicy(rule: .newest)

    /// A three-way merge: the closure sees the last agreed version and both sides, and decides.
    /// - Parameter merge: Returns the decision; throwing leaves the conflict for the app, as
    ///   ``MergeDecision/manual`` does.
    public static func merge(_ merge: @escaping @Sendable (MergeInput) throws -> MergeDecision) -> ConflictPolicy {
        ConflictPolicy(rule: .merge(merge))
    }

    /// A three-way merge of typed values: the closure gets the base (if any) and both sides
    /// decoded as `Value` and returns the merged value. Files are the union of both sides (this
    /// device's file wins on a name both have). A side that is a delete, or a value that does
    /// not decode, leaves the conflict for the app.
    public static func merge<Value: Codable & Sendable>(
        _ type: Value.Type,
        _ merge: @escaping @Sendable (_ base: Value?, _ local: Value, _ remote: Value) throws -> Value
    ) -> ConflictPolicy {
        .merge { input in
            guard !input.local.isDeleted, !input.remote.isDeleted else { return .manual }
            let base = try input.base.flatMap { $0.isDeleted ? nil : try $0.decode(Value.self) }
            let merged = try merge(base, input.local.decode(Value.self), input.remote.decode(Value.self))
            let files = input.remote.files.merging(input.local.files) { _, local in local }
            return .merged(try JSONValue(encoding: merged), files: files)
        }
    }
}

/// What a merge closure sees.
public struct MergeInput: Sendable {
    /// The record.
    public var key: RecordKey
    /// The last version both sides agreed on, if any.
    public var base: SyncRecord?
    /// This device's side.
    public var local: SyncRecord
    /// The remote side.
    public var remote: SyncRecord
}

/// What a merge closure decides.
public enum MergeDecision: Sendable {
    /// This device's side wins.
    case keepLocal
    /// The remote side wins.
    case keepRemote
    /// A new value and files (taken from either side's ``SyncRecord/files``).
    case merged(JSONValue, files: [String: SyncFile])
    /// Leave it to the app: the conflict is reported.
    case manual
}
