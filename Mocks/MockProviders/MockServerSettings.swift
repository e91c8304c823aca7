import Foundation
import MockSupport

/// The options every provider's mock shares.
public struct MockServerSettings: Sendable {
    /// Whether the mock is served over TLS, so the links it writes say `https`.
    public var secure: Bool
    /// Whether the mock saves its state in its storage folder (the Dropbox, Drive and OneDrive
    /// mocks) or keeps it in memory only.
    public var persistence: StatePersistence
    /// How long an access token lives; `nil` for the provider's real lifetime.
    public var accessTokenLifetime: Duration?

    /// Creates settings.
    /// - Parameters:
    ///   - secure: Whether the mock is served over TLS (off).
    ///   - persistence: Whether it saves its state (in memory only by default).
    ///   - accessTokenLifetime: How long an access token lives; `nil` for the provider's.
    public init(secure: Bool = false, persistence: StatePersistence = .inMemory, accessTokenLifetime: Duration? = nil) {
        self.secure = secure
        self.persistence = persistence
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// `https` when secure, otherwise `http`.
    public var scheme: String { secure ? "https" : "http" }
}

extension MockServerSettings {
    /// `options` with the scheme these settings serve with, when they serve over TLS.
    /// - Parameter options: A mock's options.
    /// - Returns: The options, their scheme `https` when secure.
    func secured<Options: SchemedMockOptions>(_ options: Options) -> Options {
        var options = options
        if secure { options.scheme = scheme }
        return options
    }
}
