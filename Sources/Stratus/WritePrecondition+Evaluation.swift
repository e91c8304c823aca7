/// Deciding whether a precondition holds against what is at a path now, for adapters that look
/// first and then write.
extension WritePrecondition {
    /// What a precondition guards: the refusal's message says it was not done.
    public enum Action: Hashable, Sendable {
        /// An upload, restore or other write of content.
        case write
        /// A delete.
        case delete
    }

    /// Checks the precondition against the current state of a path.
    ///
    /// Every adapter that reads the current version itself (instead of sending the precondition
    /// for the provider to evaluate) calls this, so all of them refuse with the same code and
    /// message.
    /// - Parameters:
    ///   - current: The version of the file at the path now, or `nil` when no file is there.
    ///   - path: The path, for the message.
    ///   - action: What the precondition guards, for the message.
    /// - Throws: ``ServiceError/Code/conflict`` when the precondition does not hold: a file is
    ///   there and the precondition is ``mustNotExist``, or the precondition is
    ///   ``mustMatch(_:)`` and no file is there or it is at another version.
    public func check(current: VersionID?, at path: RemotePath, for action: Action = .write) throws(ServiceError) {
        let undone = action == .write ? "nothing was written" : "nothing was deleted"
        switch self {
        case .none:
            return
        case .mustNotExist:
            guard let current else { return }
            let replace = action == .write ? "replace" : "delete"
            throw ServiceError(
                .conflict,
                "\(path) exists (version \(current)), and the precondition says it must not; \(undone). To \(replace) it, pass .mustMatch(\(current))."
            )
        case .mustMatch(let expected):
            guard let current else {
                throw ServiceError(
                    .conflict,
                    "No file is at \(path), so it cannot be at the version \(expected) the precondition names; \(undone)."
                )
            }
            guard current == expected else {
                throw ServiceError(
                    .conflict,
                    "\(path) is at version \(current), not \(expected): it changed since that version was read; \(undone). Read the current version, then retry with .mustMatch(\(current))."
                )
            }
        }
    }
}
