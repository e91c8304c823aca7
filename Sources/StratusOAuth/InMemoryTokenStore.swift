import StratusAdapterKit
import Synchronization

/// A ``TokenStore`` that keeps the token in memory only: for tests, and for apps that persist
/// tokens somewhere of their own (a keychain) and hand them in and out.
///
/// Updates are serialized within the process; there is nothing to share with another one.
public final class InMemoryTokenStore: TokenStore {
    private let token: Mutex<OAuthToken?>
    private let updates = AsyncLock(cancelledMessage: "The task was cancelled while waiting for the token store.")

    /// Creates a store.
    /// - Parameter token: The token to start with, if any.
    public init(_ token: OAuthToken? = nil) {
        self.token = Mutex(token)
    }

    /// The token held in memory, or `nil`.
    public func load() async throws -> OAuthToken? {
        token.withLock { $0 }
    }

    /// Replaces the token held in memory, after any update in progress.
    public func save(_ newToken: OAuthToken) async throws {
        try await updates.withLock {
            token.withLock { $0 = newToken }
        }
    }

    /// Transforms the token held in memory, one update at a time within the process.
    public func update(_ transform: @Sendable (OAuthToken?) async throws -> OAuthToken) async throws -> OAuthToken {
        try await updates.withLock {
            let stored = token.withLock { $0 }
            let result = try await transform(stored)
            if result != stored {
                token.withLock { $0 = result }
            }
            return result
        }
    }

    /// Forgets the token held in memory, after any update in progress.
    public func clear() async throws {
        try await updates.withLock {
            token.withLock { $0 = nil }
        }
    }
}
