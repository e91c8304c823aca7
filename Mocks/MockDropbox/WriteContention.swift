import Foundation

/// Dropbox's per-namespace write serialisation: commits that overlap in one namespace beyond
/// a small number are refused with `too_many_write_operations`, and batch commits run one at
/// a time. (Pass-through until contention is modelled.)
final class WriteContention: Sendable {
    /// Runs one commit (an upload's, a finish's, a delete's, a move's...) as one write.
    func commit<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await body()
    }

    /// Runs a batch commit of `entries` entries as one write.
    func batch<T: Sendable>(entries: Int, _ body: () async throws -> T) async throws -> T {
        try await body()
    }
}
