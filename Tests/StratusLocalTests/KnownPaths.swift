import Stratus
import Synchronization

/// The paths a ``LyingService`` remembers, for its lie that forgets reported deletions.
final class KnownPaths: Sendable {
    private let paths = Mutex<Set<RemotePath>>([])

    /// Remembers a path.
    func insert(_ path: RemotePath) {
        _ = paths.withLock { $0.insert(path) }
    }

    /// Forgets a path.
    /// - Returns: Whether it was remembered.
    func remove(_ path: RemotePath) -> Bool {
        paths.withLock { $0.remove(path) != nil }
    }
}
