/// A promise of the sync layer that an adversarial run found broken: which promise, in which
/// seed's run, at which step of its schedule, and what was seen.
public struct SimulationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The promises the history checker holds the sync layer to.
    public enum Promise: String, Sendable, Hashable, CaseIterable {
        /// Every acknowledged save is current, in its record's history, archived or a conflict.
        case writeSurvives = "every acknowledged write survives"
        /// Every acknowledged write id of a union-merged record is in its final value everywhere.
        case unionKeepsEveryWrite = "a union merge keeps every acknowledged write id"
        /// Every device ends with the same records and files.
        case devicesConverge = "all devices converge"
        /// A record leaves a device only through a tombstone (a device's delete) or a safety
        /// rail the app accepted.
        case noVanishing = "no record disappears without a tombstone"
        /// A change page is a pure function of its token: read twice, the same entries.
        case changePageIsPure = "a change page read twice gives the same entries"
        /// When the faults stop, syncs settle: nothing left to push, no conflict, no error.
        case syncSettles = "syncs settle once the faults stop"
        /// Files match their hashes and every blob a record names is on the remote.
        case filesIntact = "every file matches its hash and its blob is on the remote"
        /// A change feed reports a record document deleted only when someone deleted it.
        case noPhantomDeletions = "a change feed reports only deletions that happened"
        /// A deletion the remote reports stays reported until a sync takes it in.
        case deletionsStayReported = "a re-read change feed still reports the deletions"
    }

    /// The promise broken.
    public var promise: Promise
    /// The seed of the run.
    public var seed: UInt64
    /// The first step at which the problem was seen (or, for a lost write, the step that saved
    /// it), counting from 0; `nil` when only the final check saw it.
    public var step: Int?
    /// That step, in words.
    public var stepDescription: String?
    /// What was seen.
    public var detail: String

    /// Creates a problem.
    /// - Parameters:
    ///   - promise: The promise broken.
    ///   - seed: The seed of the run.
    ///   - step: The first failing step, if known.
    ///   - stepDescription: That step in words.
    ///   - detail: What was seen.
    public init(promise: Promise, seed: UInt64, step: Int?, stepDescription: String?, detail: String) {
        self.promise = promise
        self.seed = seed
        self.step = step
        self.stepDescription = stepDescription
        self.detail = detail
    }

    /// `[promise] seed S, step N (what the step did): detail`.
    public var description: String {
        let at = step.map { "step \($0)" + (stepDescription.map { " (\($0))" } ?? "") } ?? "final check"
        return "[\(promise.rawValue)] seed \(seed), \(at): \(detail)"
    }
}
