import Foundation
import MockOAuth

/// How to build one provider's mock and what a client needs to reach it: the one description
/// the tests, the fault matrix and `stratus-mock` start a mock from.
///
/// A description carries the options of its mock (``DropboxMockProvider``,
/// ``DriveMockProvider``, ``OneDriveMockProvider``, ``NextcloudMockProvider``); the options
/// every mock shares (TLS, persistence, token lifetime) are a ``MockServerSettings``.
///
/// ```swift
/// try await DropboxMockProvider().withRunning { mock in
///     // POST mock.baseURL/2/files/upload with "Authorization: Bearer \(mock.accessToken)"
/// }
/// ```
public protocol MockProvider: Sendable {
    /// The mock server this description builds.
    associatedtype Server: MockProviderServer

    /// The provider's name: `dropbox`, `drive`, `nextcloud` or `onedrive`.
    var name: String { get }

    /// The flavour of the authorization server the mock accepts tokens from.
    var authorizationFlavor: MockAuthorizationServer.Flavor { get }

    /// Builds the mock over a storage folder.
    /// - Parameters:
    ///   - storage: Where the mock keeps its blobs (and its saved state, when it saves it).
    ///   - authorization: The authorization server whose tokens the mock accepts.
    ///   - settings: The options every mock shares.
    /// - Returns: The mock.
    /// - Throws: An error when the storage folder cannot be used.
    func makeServer(storage: URL, authorization: MockAuthorizationServer, settings: MockServerSettings) throws
        -> Server

    /// Where the provider's API starts on the mock's base URL.
    /// - Parameters:
    ///   - server: The running mock.
    ///   - baseURL: The base URL the mock listens on.
    /// - Returns: The URL a client's configuration names as the API's.
    func apiURL(of server: Server, baseURL: URL) -> URL

    /// The user and password the mock accepts with HTTP Basic, for a mock that signs in that way.
    var basicSignIn: (user: String, password: String)? { get }

    /// Lines that tell a person how to reach the running mock, beyond the endpoints every mock
    /// has (the `stratus-mock` banner).
    /// - Parameters:
    ///   - server: The running mock.
    ///   - baseURL: The base URL it listens on.
    /// - Returns: The lines, each indented by two spaces.
    func summary(of server: Server, baseURL: URL) -> [String]
}

extension MockProvider {
    /// Signs in with OAuth tokens unless the description says otherwise.
    public var basicSignIn: (user: String, password: String)? { nil }

    /// Makes the authorization server of this provider's mock: Microsoft's identity platform
    /// answers every refresh with a new refresh token, the others keep theirs.
    /// - Parameter accessTokenLifetime: How long an access token lives; `nil` for the provider's.
    /// - Returns: The authorization server.
    public func makeAuthorization(accessTokenLifetime: Duration? = nil) -> MockAuthorizationServer {
        MockAuthorizationServer(
            configuration: .init(
                flavor: authorizationFlavor, accessTokenLifetime: accessTokenLifetime,
                rotatesRefreshTokens: authorizationFlavor == .microsoft))
    }

    /// Builds the mock with an authorization server of its own.
    /// - Parameters:
    ///   - storage: Where the mock keeps its blobs (and its saved state, when it saves it).
    ///   - settings: The options every mock shares.
    /// - Returns: The mock, not yet serving.
    /// - Throws: An error when the storage folder cannot be used.
    public func build(storage: URL, settings: MockServerSettings = MockServerSettings()) throws -> MockInstance<Self> {
        let authorization = makeAuthorization(accessTokenLifetime: settings.accessTokenLifetime)
        let server = try makeServer(storage: storage, authorization: authorization, settings: settings)
        return MockInstance(provider: self, server: server, authorization: authorization, storage: storage)
    }
}
