import Foundation
import Hummingbird

/// A second host a mock serves on a port of its own, such as OneDrive's host of download and
/// upload session URLs: it listens before the main host, and the mock is told where.
public struct MockContentHost: Sendable {
    /// Mounts the host's routes on a fresh router.
    public var addRoutes: @Sendable (Router<BasicRequestContext>) -> Void
    /// Tells the mock the host's base URL once it listens.
    public var started: @Sendable (URL) -> Void

    /// Creates a content host.
    /// - Parameters:
    ///   - addRoutes: Mounts the host's routes on a fresh router.
    ///   - started: Tells the mock the host's base URL once it listens.
    public init(
        addRoutes: @escaping @Sendable (Router<BasicRequestContext>) -> Void,
        started: @escaping @Sendable (URL) -> Void
    ) {
        self.addRoutes = addRoutes
        self.started = started
    }
}
