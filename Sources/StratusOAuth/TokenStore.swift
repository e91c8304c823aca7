/// Where a sign-in's ``OAuthToken`` is kept between runs.
///
/// A conformer must make ``update(_:)`` atomic across every user of the same storage: while one
/// update runs (re-reading, maybe refreshing over the network, writing), no other update or
/// ``save(_:)`` of the same storage may run, in this process or another. That is what lets a
/// ``CredentialProvider`` find a token another process refreshed a moment ago instead of
/// refreshing again with a refresh token that rotation has already retired.
public protocol TokenStore: Sendable {
    /// The stored token, or `nil` when there is none.
    /// - Throws: ``/Stratus/ServiceError`` when the storage cannot be read or must not be used.
    func load() async throws -> OAuthToken?

    /// Replaces the stored token.
    /// - Parameter token: The token to keep.
    /// - Throws: ``/Stratus/ServiceError`` when the storage cannot be written.
    func save(_ token: OAuthToken) async throws

    /// Re-reads the stored token and replaces it with what `transform` returns, as one step that
    /// no other update or save interleaves with.
    ///
    /// Nothing is written when `transform` returns the token it was given, or throws.
    /// - Parameter transform: Receives the stored token (or `nil`) and returns the token to keep.
    ///   It may suspend, for example for a refresh request.
    /// - Returns: The token `transform` returned.
    /// - Throws: What `transform` throws, or ``/Stratus/ServiceError`` when the storage cannot be
    ///   read, written or locked in time.
    func update(_ transform: @Sendable (OAuthToken?) async throws -> OAuthToken) async throws -> OAuthToken

    /// Removes the stored token (after sign-out or revocation); removing nothing is not an error.
    /// - Throws: ``/Stratus/ServiceError`` when the storage cannot be written.
    func clear() async throws
}
