import Foundation
public import Logging
import Stratus
import StratusAdapterKit
public import StratusHTTP
import Synchronization

/// Hands out valid access tokens to every request of an adapter, refreshing them when needed.
///
/// - **Ahead of expiry:** a token that expires within ``refreshMargin`` is refreshed before it
///   is used.
/// - **Single flight:** any number of concurrent callers that need a new token share one refresh
///   request.
/// - **Across processes:** the refresh happens inside ``TokenStore/update(_:)``, which re-reads
///   the store under its lock. When another process (or another provider on the same file) has
///   already refreshed, its token is used and no request is sent, so a rotated refresh token is
///   never lost.
/// - **On a rejected token:** ``perform(_:isTokenRejected:)`` repeats a request refused because
///   its token expired or is invalid exactly once, with the new token; a second refusal is an
///   error, never a loop.
/// - **Revoked sign-in:** an `invalid_grant` answer becomes
///   ``/Stratus/ServiceError/Code/reauthenticationRequired`` with a message that says how to sign
///   in again; that refresh token is not tried again by this provider.
///
/// Every new token is saved to the store, including a rotated refresh token.
public actor CredentialProvider {
    /// The OAuth client that refreshes and revokes.
    public nonisolated let client: OAuthClient
    /// Where the token lives between runs.
    public nonisolated let store: any TokenStore
    /// How long before its expiry a token is already replaced.
    public nonisolated let refreshMargin: Duration
    /// How many refresh requests this provider has sent (not counting tokens it found already
    /// refreshed in the store).
    public private(set) var refreshCount = 0

    private let logger: Logger
    private var current: OAuthToken?
    private var inFlight: Flight?
    /// A refresh token the provider answered `invalid_grant` for.
    private var deadRefreshToken: String?

    private struct Flight {
        var task: Task<OAuthToken, any Error>
        /// The `Authorization` value this refresh replaces because the server refused it.
        var rejecting: String?
    }

    /// Creates a provider.
    /// - Parameters:
    ///   - client: The OAuth client for the provider.
    ///   - store: Where the token is kept; it must already hold a signed-in token, or get one
    ///     through ``save(_:)``.
    ///   - refreshMargin: How long before expiry a token is replaced; 5 minutes by default.
    ///   - logger: Where to log; no secret is logged.
    public init(
        client: OAuthClient,
        store: any TokenStore,
        refreshMargin: Duration = .seconds(300),
        logger: Logger = Logger(label: "stratus.oauth", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.client = client
        self.store = store
        self.refreshMargin = refreshMargin
        self.logger = logger
    }

    /// A token that is valid for at least ``refreshMargin`` (or whose expiry is unknown).
    /// - Throws: ``/Stratus/ServiceError``: `reauthenticationRequired` when no sign-in is stored or
    ///   it was revoked, others from the token endpoint or the store.
    public func token() async throws -> OAuthToken {
        try await obtain(rejecting: nil)
    }

    /// The `Authorization` header value for the next request: `Bearer <access token>`.
    /// - Throws: As ``token()``.
    public func authorizationHeader() async throws -> String {
        try await token().authorizationHeaderValue
    }

    /// The secrets this provider holds now (access and refresh token, client secret), which
    /// server text must never carry into a message; nothing is loaded or refreshed for it.
    public var knownSecrets: [String] {
        [current?.accessToken, current?.refreshToken, client.provider.clientSecret].compactMap { $0 }
    }

    /// Keeps a token from a new sign-in: saves it to the store and uses it from now on.
    /// - Parameter token: The token from ``OAuthClient/exchange(code:for:)``.
    /// - Throws: ``/Stratus/ServiceError`` when the store cannot be written.
    public func save(_ token: OAuthToken) async throws {
        try await store.save(token)
        current = token
        deadRefreshToken = nil
    }

    /// Sends a request with a valid token and, when the answer says the token expired or is
    /// invalid, refreshes once and sends it once more with the new token.
    ///
    /// The request is never repeated with the refused header. Runs on the caller's executor; only
    /// the token bookkeeping happens on the provider.
    /// - Parameters:
    ///   - send: Sends the request with the given `Authorization` header value. It may be called
    ///     twice, so its body must be sendable twice.
    ///   - isTokenRejected: Whether an answer means the token expired or is invalid, such as
    ///     `client.provider.tokenRejection.matches(response)`.
    /// - Returns: The answer (of the second attempt when there was one).
    /// - Throws: What `send` throws; ``/Stratus/ServiceError`` with code `unauthorized` when the
    ///   fresh token is refused too, or the refresh's errors.
    public nonisolated(nonsending) func perform<Result>(
        _ send: (_ authorization: String) async throws -> Result,
        isTokenRejected: (Result) -> Bool
    ) async throws -> Result {
        let header = try await authorizationHeader()
        let first = try await send(header)
        guard isTokenRejected(first) else { return first }
        logger.debug(
            "Access token refused; refreshing once and repeating the request",
            metadata: ["provider": "\(client.provider.name)"])
        let replacement = try await token(replacingRejected: header).authorizationHeaderValue
        guard replacement != header else { throw refusedAfterRefresh }
        let second = try await send(replacement)
        guard !isTokenRejected(second) else { throw refusedAfterRefresh }
        return second
    }

    /// Sends an HTTP request with a valid bearer token through the client's HTTP client,
    /// refreshing and repeating it once when the provider's ``OAuthProvider/tokenRejection`` rule
    /// says the token was refused.
    ///
    /// The request's body must be sendable twice (`.empty`, `.bytes` or `.file`); use
    /// ``perform(_:isTokenRejected:)`` for a streamed body.
    /// - Parameters:
    ///   - request: The request; its `Authorization` header is set here.
    ///   - destination: Where the response body goes.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``/Stratus/ServiceError`` for transport failures and as
    ///   ``perform(_:isTokenRejected:)``.
    public nonisolated func perform(
        _ request: StratusHTTPRequest,
        into destination: HTTPResponseDestination = .memory(limit: 16 * 1024 * 1024)
    ) async throws -> StratusHTTPResponse {
        let (http, rule) = (client.http, client.provider.tokenRejection)
        return try await perform(
            { authorization in
                var request = request
                request.headers.set("Authorization", authorization)
                do {
                    return try await http.execute(request, into: destination)
                } catch {
                    throw ServiceError.transportFailure(error, action: "The request \(request)")
                }
            }, isTokenRejected: { rule.matches($0) })
    }

    /// Signs out: revokes the grant at the provider (refreshing first when the access token has
    /// expired) and removes the token from the store.
    ///
    /// A sign-in that is already revoked is simply removed.
    /// - Throws: ``/Stratus/ServiceError`` when the provider did not revoke (the token is then
    ///   kept) or the store cannot be written.
    public func signOut() async throws {
        do {
            let token = try await token()
            switch client.provider.revocation?.style {
            case .bearer:
                let (client, rule) = (client, client.provider.tokenRejection)
                let response = try await perform(
                    { authorization in
                        try await client.sendRevocation(of: token, authorization: authorization)
                    }, isTokenRejected: { rule.matches($0) })
                try client.checkRevocation(response, secrets: [])
            case .formToken:
                try await client.revoke(token)
            case nil:
                break
            }
        } catch let error as ServiceError where error.code == .reauthenticationRequired {
            // Nothing valid is left to revoke.
        }
        try await store.clear()
        current = nil
        logger.debug("Signed out", metadata: ["provider": "\(client.provider.name)"])
    }

    // MARK: Single flight

    /// A token to use instead of one whose header the server refused.
    private func token(replacingRejected header: String) async throws -> OAuthToken {
        try await obtain(rejecting: header)
    }

    private func obtain(rejecting header: String?) async throws -> OAuthToken {
        while true {
            if let current, current.authorizationHeaderValue != header, !current.isExpired(margin: refreshMargin) {
                return current
            }
            guard let flight = inFlight else { break }
            if header == nil || flight.rejecting == header {
                return try await flight.task.value
            }
            // That refresh began before this refusal was known; once it ends, look again.
            _ = try? await flight.task.value
        }
        let task = Task { try await self.renew(rejecting: header) }
        inFlight = Flight(task: task, rejecting: header)
        return try await task.value
    }

    /// Re-reads the store under its lock and refreshes only when the stored token is no good.
    private func renew(rejecting header: String?) async throws -> OAuthToken {
        defer { inFlight = nil }
        let (client, margin, dead, logger) = (client, refreshMargin, deadRefreshToken, logger)
        let provider = client.provider.name
        let attempt = RefreshAttempt()
        do {
            let token = try await store.update { stored in
                guard let stored else {
                    throw ServiceError(
                        .reauthenticationRequired, "No \(provider) sign-in is stored. \(client.signInHint)")
                }
                if stored.authorizationHeaderValue != header, !stored.isExpired(margin: margin) {
                    logger.debug("Using the stored token", metadata: ["provider": "\(provider)", "token": "\(stored)"])
                    return stored
                }
                if let dead, stored.refreshToken == dead {
                    throw ServiceError(
                        .reauthenticationRequired,
                        "The \(provider) sign-in is no longer valid: the refresh token was revoked or has expired. \(client.signInHint)",
                        providerError: "invalid_grant"
                    )
                }
                logger.debug(
                    "Refreshing access token",
                    metadata: [
                        "provider": "\(provider)",
                        "reason": "\(header == nil ? "expires within margin" : "refused by the server")",
                        "expires_at": "\(stored.expiresAt.map { $0.formatted(.iso8601) } ?? "unknown")",
                    ])
                attempt.record(stored.refreshToken)
                return try await client.refresh(stored)
            }
            if attempt.sent { refreshCount += 1 }
            current = token
            return token
        } catch let error as ServiceError where error.code == .reauthenticationRequired {
            if attempt.sent { refreshCount += 1 }
            if let used = attempt.refreshToken { deadRefreshToken = used }
            current = nil
            logger.debug("Sign-in is no longer valid", metadata: ["provider": "\(provider)"])
            throw error
        }
    }

    private nonisolated var refusedAfterRefresh: ServiceError {
        ServiceError(
            .unauthorized,
            "\(client.provider.name) refused the access token again right after it was refreshed; the request was not repeated a second time.",
            httpStatus: 401
        )
    }
}

/// Records, from inside a store update, whether a refresh request was sent and with which
/// refresh token.
private final class RefreshAttempt: Sendable {
    private let state = Mutex<(sent: Bool, refreshToken: String?)>((false, nil))

    func record(_ refreshToken: String?) {
        state.withLock { $0 = (true, refreshToken) }
    }

    var sent: Bool { state.withLock { $0.sent } }
    var refreshToken: String? { state.withLock { $0.refreshToken } }
}
