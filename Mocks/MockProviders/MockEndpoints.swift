import Foundation

/// What a client needs to reach a running mock.
public struct MockEndpoints: Sendable {
    /// The main host's base URL, without a trailing slash; the authorization server answers
    /// there too.
    public var baseURL: URL
    /// Where the provider's API starts (OneDrive: `/v1.0`; Nextcloud: the user's files).
    public var apiURL: URL
    /// The second host's base URL, for a mock that has one (OneDrive's content host).
    public var contentURL: URL?
    /// The authorization server's token endpoint.
    public var tokenURL: URL
    /// The client ID the authorization server knows.
    public var clientID: String
    /// That client's secret, or `nil` for a public client.
    public var clientSecret: String?
    /// The user and password of HTTP Basic sign-in, for a mock that signs in that way.
    public var basicSignIn: (user: String, password: String)?

    /// Creates endpoints.
    /// - Parameters:
    ///   - baseURL: The main host's base URL.
    ///   - apiURL: Where the provider's API starts.
    ///   - contentURL: The second host's base URL, if any.
    ///   - tokenURL: The token endpoint.
    ///   - clientID: The client ID.
    ///   - clientSecret: The client's secret, if any.
    ///   - basicSignIn: The user and password of HTTP Basic sign-in, if any.
    public init(
        baseURL: URL, apiURL: URL, contentURL: URL?, tokenURL: URL, clientID: String, clientSecret: String?,
        basicSignIn: (user: String, password: String)?
    ) {
        self.baseURL = baseURL
        self.apiURL = apiURL
        self.contentURL = contentURL
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.basicSignIn = basicSignIn
    }
}
