public import Foundation

/// What a ``ContractSuite`` hands the service factory for one check.
///
/// The factory is called once per check with a fresh context, and again with the *same* context
/// when a check needs a second instance of the same service (to prove that a saved change token
/// survives a restart). So the factory must derive the service's namespace from the context
/// alone: a local root inside ``scratchDirectory``, a mock server keyed by ``id``, a remote
/// folder named after ``id``.
public struct ContractContext: Sendable, Hashable {
    /// A folder for this check only, created before the factory is called and removed after the
    /// check. The suite keeps its own local files elsewhere, so this folder is the factory's.
    public let scratchDirectory: URL
    /// A short identifier unique to this check run, usable as a folder or account name.
    public let id: String
    /// The page size the factory should give the service's change feed, where it can, so the
    /// paging check crosses page boundaries with few changes.
    public let changePageSize: Int

    /// Creates a context; the suite does this for each check.
    /// - Parameters:
    ///   - scratchDirectory: The factory's folder.
    ///   - id: The run's identifier.
    ///   - changePageSize: The page size hint.
    public init(scratchDirectory: URL, id: String, changePageSize: Int) {
        self.scratchDirectory = scratchDirectory
        self.id = id
        self.changePageSize = changePageSize
    }
}
