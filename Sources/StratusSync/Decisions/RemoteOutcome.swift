import Stratus

/// What a remote document does to a local record, decided apart from the database: the local
/// row and what the remote holds in, one outcome out. ``SyncStore`` carries each outcome out in
/// one transaction; `RemoteOutcomeTests` checks the decisions as a table.
enum RemoteOutcome: Sendable, Equatable {
    /// Nothing to do: the version is the one this device has, or nothing is known on either side.
    case nothing
    /// The document vanished (not a tombstone: removed by hand or by another tool), and this
    /// device changed the record: the local side is pushed again as new.
    case pushAgainAsNew
    /// The document vanished, and this device did not change the record: it goes, its last
    /// side into the archive.
    case removeVanished
    /// A record this device has never seen: taken as it is.
    case insert
    /// This device did not change the record: the remote side replaces it.
    case fastForward
    /// The remote holds this device's own write, committed before its answer was lost: the
    /// version is adopted; `clean` when nothing changed locally since.
    case adoptOwnWrite(clean: Bool)
    /// Both sides changed: the record type's policy decides.
    case conflict

    /// Decides.
    /// - Parameters:
    ///   - local: The local row, if any.
    ///   - version: The remote version, or `nil` when no document is there.
    ///   - remote: The remote document, or `nil` when none is there.
    static func decide(local: RecordRow?, version: VersionID?, remote: RecordDocument?) -> RemoteOutcome {
        guard let remote, let version else {
            guard let local, local.baseVersion != nil else { return .nothing }
            return local.dirty || local.document.isDeleted ? .pushAgainAsNew : .removeVanished
        }
        guard let local else { return .insert }
        if local.baseVersion == version { return .nothing }
        guard local.dirty else { return .fastForward }
        let sameEdit = remote.edit == local.document.edit
        let sameContent = local.document.hasSameContent(as: remote)
        if sameEdit || remote.edit == local.pushedEdit || sameContent {
            return .adoptOwnWrite(clean: sameEdit || sameContent)
        }
        return .conflict
    }
}

extension ConflictPolicy.Rule {
    /// What the rule decides for a conflict; a merge rule that throws leaves the conflict to
    /// the app (`manual`), with the error to log.
    func decide(_ input: MergeInput) -> (MergeDecision, failure: (any Error)?) {
        switch self {
        case .manual: return (MergeDecision.manual, nil)
        case .keepLocal: return (MergeDecision.keepLocal, nil)
        case .keepRemote: return (MergeDecision.keepRemote, nil)
        case .newest:
            return (input.local.modified > input.remote.modified ? MergeDecision.keepLocal : .keepRemote, nil)
        case .merge(let merge):
            do {
                return (try merge(input), nil)
            } catch {
                return (.manual, error)
            }
        }
    }
}
