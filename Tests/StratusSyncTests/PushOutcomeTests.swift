import Foundation
import Stratus
import Testing

@testable import StratusSync

/// Which writes slipped in between a push's precondition check and its commit, decided from the
/// history alone: a table of cases, no service.
@Suite struct PushOutcomeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The history, newest first.
        var history: [String]
        var written: String
        var base: String?
        var lost: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "nothing in between", history: ["v2", "v1"], written: "v2", base: "v1", lost: []),
        Case(name: "one write in between", history: ["v3", "v2", "v1"], written: "v3", base: "v1", lost: ["v2"]),
        Case(
            name: "two writes in between", history: ["v4", "v3", "v2", "v1"], written: "v4", base: "v1",
            lost: ["v3", "v2"]),
        Case(name: "a write after ours", history: ["v3", "v2", "v1"], written: "v2", base: "v1", lost: []),
        Case(name: "the base left the history", history: ["v3", "v2"], written: "v3", base: "v1", lost: []),
        Case(name: "ours is not in the history", history: ["v9"], written: "v3", base: "v1", lost: []),
        Case(name: "a first write above another's", history: ["v2", "v1"], written: "v2", base: nil, lost: ["v1"]),
        Case(name: "a first write alone", history: ["v1"], written: "v1", base: nil, lost: []),
    ]

    @Test(arguments: cases)
    func lostWritesFollowTheTable(_ table: Case) {
        let history = table.history.map {
            FileVersion(
                id: VersionID(rawValue: $0), size: 1, modified: Date(timeIntervalSince1970: 0), contentHash: nil)
        }
        let found = PushOutcome.lostWrites(
            in: history, written: VersionID(rawValue: table.written), base: table.base.map(VersionID.init(rawValue:)))
        #expect(found.map(\.rawValue) == table.lost)
    }
}
