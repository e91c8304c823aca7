import Foundation
import Stratus
import StratusOAuth
import StratusTestSupport
import Synchronization
import Testing

/// The permission bits of a file, such as `0o600`.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require(attributes[.posixPermissions] as? Int) & 0o777
}

/// Sets the permission bits of a file.
func setPermissions(_ mode: Int, of url: URL) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
}

/// A token that expired an hour ago.
func expiredToken(access: String = "access-old", refresh: String? = "refresh-old") -> OAuthToken {
    OAuthToken(
        accessToken: access, refreshToken: refresh, expiresAt: Date().addingTimeInterval(-3600),
        scopes: ["files.content.read"])
}

/// Retries quickly, so tests of transient failures stay fast.
let quickRetries = RetryPolicy(
    maximumAttempts: 3, initialDelay: .milliseconds(10), maximumDelay: .milliseconds(20), jitter: 0)

/// The time a block takes.
func elapsed(_ body: () async throws -> Void) async rethrows -> Duration {
    let start = ContinuousClock.now
    try await body()
    return ContinuousClock.now - start
}

/// A store that counts how often each call reaches it.
final class CountingStore: TokenStore {
    let inner: InMemoryTokenStore
    private let counts = Mutex((loads: 0, saves: 0, updates: 0))

    init(_ token: OAuthToken?) { inner = InMemoryTokenStore(token) }

    var loads: Int { counts.withLock { $0.loads } }
    var updates: Int { counts.withLock { $0.updates } }

    func load() async throws -> OAuthToken? {
        counts.withLock { $0.loads += 1 }
        return try await inner.load()
    }

    func save(_ token: OAuthToken) async throws {
        counts.withLock { $0.saves += 1 }
        try await inner.save(token)
    }

    func update(_ transform: @Sendable (OAuthToken?) async throws -> OAuthToken) async throws -> OAuthToken {
        counts.withLock { $0.updates += 1 }
        return try await inner.update(transform)
    }

    func clear() async throws { try await inner.clear() }
}
