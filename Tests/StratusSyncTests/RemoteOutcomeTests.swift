import Foundation
import Stratus
import Testing

@testable import StratusSync

/// What a remote document does to a local record, and what a policy decides for a conflict, as
/// tables of cases: no database, no service.
@Suite struct RemoteOutcomeTests {
    let key: RecordKey
    init() throws { key = try RecordKey(type: "save", id: "slot-1") }

    func document(_ edit: String, level: Int64, deleted: Bool = false, modified: TimeInterval = 0) -> RecordDocument {
        RecordDocument(
            key: key, edit: edit, device: "d", modified: Date(timeIntervalSince1970: modified), isDeleted: deleted,
            value: deleted ? .null : .object(["level": .integer(level)]), files: [:])
    }

    func row(_ document: RecordDocument, dirty: Bool, base: String?, pushedEdit: String? = nil) -> RecordRow {
        RecordRow(
            document: document, revision: 1, dirty: dirty, baseVersion: base.map(VersionID.init(rawValue:)),
            baseDocument: nil, pushedEdit: pushedEdit)
    }

    @Test func outcomesFollowTheTable() {
        let mine = document("e-mine", level: 3)
        let theirs = document("e-theirs", level: 5)
        let cases: [(String, RecordRow?, String?, RecordDocument?, RemoteOutcome)] = [
            ("nothing on either side", nil, nil, nil, .nothing),
            ("never synced, nothing remote", row(mine, dirty: true, base: nil), nil, nil, .nothing),
            ("vanished, local edits", row(mine, dirty: true, base: "v1"), nil, nil, .pushAgainAsNew),
            (
                "vanished, local delete", row(document("e", level: 0, deleted: true), dirty: false, base: "v1"), nil,
                nil, .pushAgainAsNew
            ),
            ("vanished, untouched here", row(mine, dirty: false, base: "v1"), nil, nil, .removeVanished),
            ("new record", nil, "v1", theirs, .insert),
            ("the version this device has", row(mine, dirty: true, base: "v2"), "v2", theirs, .nothing),
            ("newer remote, untouched here", row(mine, dirty: false, base: "v1"), "v2", theirs, .fastForward),
            (
                "own write whose answer was lost", row(mine, dirty: true, base: "v1"), "v2", mine,
                .adoptOwnWrite(clean: true)
            ),
            (
                "own earlier write, edited since", row(mine, dirty: true, base: "v1", pushedEdit: "e-theirs"), "v2",
                theirs, .adoptOwnWrite(clean: false)
            ),
            (
                "another device wrote the same thing", row(mine, dirty: true, base: "v1"), "v2",
                document("e-other", level: 3), .adoptOwnWrite(clean: true)
            ),
            ("both changed", row(mine, dirty: true, base: "v1"), "v2", theirs, .conflict),
            (
                "a stale local delete meets a newer edit",
                row(document("e-del", level: 0, deleted: true), dirty: true, base: "v1"), "v9", theirs, .conflict
            ),
        ]
        for (name, local, version, remote, expected) in cases {
            #expect(
                RemoteOutcome.decide(local: local, version: version.map(VersionID.init(rawValue:)), remote: remote)
                    == expected, "\(name)")
        }
    }

    @Test func policiesDecideConflicts() throws {
        func input(localModified: TimeInterval, remoteModified: TimeInterval) -> MergeInput {
            func record(_ modified: TimeInterval, _ level: Int64) -> SyncRecord {
                SyncRecord(
                    key: key, value: .object(["level": .integer(level)]),
                    modified: Date(timeIntervalSince1970: modified),
                    device: "d", isDeleted: false, files: [:])
            }
            return MergeInput(key: key, base: nil, local: record(localModified, 1), remote: record(remoteModified, 2))
        }
        struct Refused: Error {}
        let failing = ConflictPolicy.Rule.merge { _ in throw Refused() }
        let merging = ConflictPolicy.Rule.merge { input in .merged(input.remote.value, files: [:]) }
        let cases: [(String, ConflictPolicy.Rule, MergeInput, String, Bool)] = [
            ("manual", .manual, input(localModified: 1, remoteModified: 2), "manual", false),
            ("keep local", .keepLocal, input(localModified: 1, remoteModified: 2), "keepLocal", false),
            ("keep remote", .keepRemote, input(localModified: 2, remoteModified: 1), "keepRemote", false),
            ("newest: local is newer", .newest, input(localModified: 2, remoteModified: 1), "keepLocal", false),
            ("newest: remote is newer", .newest, input(localModified: 1, remoteModified: 2), "keepRemote", false),
            (
                "newest: a tie goes to the remote", .newest, input(localModified: 1, remoteModified: 1), "keepRemote",
                false
            ),
            ("a merge", merging, input(localModified: 1, remoteModified: 2), "merged", false),
            (
                "a merge that throws is left to the app", failing, input(localModified: 1, remoteModified: 2), "manual",
                true
            ),
        ]
        for (name, rule, input, expected, fails) in cases {
            let (decision, failure) = rule.decide(input)
            let named =
                switch decision {
                case .manual: "manual"
                case .keepLocal: "keepLocal"
                case .keepRemote: "keepRemote"
                case .merged: "merged"
                }
            #expect(named == expected, "\(name)")
            #expect((failure != nil) == fails, "\(name)")
        }
    }
}
