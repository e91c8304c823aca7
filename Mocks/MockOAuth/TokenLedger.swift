import Synchronization

/// Every code, grant and token the authorization server issued, behind one lock.
final class TokenLedger: Sendable {
    private struct State {
        var codes: [String: CodeRecord] = [:]
        var grants: [Int: GrantRecord] = [:]
        var accessTokens: [String: AccessTokenRecord] = [:]
        var refreshTokens: [String: RefreshTokenRecord] = [:]
        var nextGrant = 1
        var refreshCount = 0
        var codeExchangeCount = 0
    }

    private let configuration: MockAuthorizationServer.Configuration
    private let state = Mutex(State())

    init(configuration: MockAuthorizationServer.Configuration) {
        self.configuration = configuration
    }

    var refreshCount: Int { state.withLock { $0.refreshCount } }
    var codeExchangeCount: Int { state.withLock { $0.codeExchangeCount } }

    /// Stores an approved authorization under a new code, dropping codes that expired.
    func storeCode(_ code: String, for authorization: ApprovedAuthorization) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.codes = state.codes.filter { $0.value.expiresAt > now }
            state.codes[code] = CodeRecord(
                authorization: authorization,
                expiresAt: now + configuration.authorizationCodeLifetime
            )
        }
    }

    /// Exchanges a code for tokens (grant_type=authorization_code).
    /// - Parameters:
    ///   - code: The code.
    ///   - clientID: The authenticated client.
    ///   - secretVerified: Whether the client proved its secret.
    ///   - redirectURI: The `redirect_uri` sent with the exchange.
    ///   - verifier: The `code_verifier` sent with the exchange.
    ///   - fresh: The tokens to hand out on success.
    func exchange(
        code: String,
        clientID: String,
        secretVerified: Bool,
        redirectURI: String?,
        verifier: String?,
        fresh: FreshTokens
    ) throws(OAuthFailure) -> TokenIssue {
        let verifierChallenge = verifier.map(PKCE.challenge(for:))
        let now = ContinuousClock.now
        let lifetime = configuration.accessTokenLifetime
        return try state.withLock { state throws(OAuthFailure) -> TokenIssue in
            guard let record = state.codes[code] else { throw .codeUnknown }
            if let earlierGrant = record.redeemedAs {
                // RFC 6749 §4.1.2: a code used twice revokes what it was exchanged for.
                state.grants[earlierGrant]?.revoked = true
                throw .codeReused
            }
            guard now < record.expiresAt else {
                state.codes[code] = nil
                throw .codeExpired
            }
            let authorization = record.authorization
            guard authorization.clientID == clientID else { throw .codeForAnotherClient }
            guard authorization.redirectURI == redirectURI else { throw .redirectMismatch }
            if let challenge = authorization.codeChallenge {
                guard let verifier, let verifierChallenge else { throw .verifierMissing }
                guard PKCE.isWellFormed(verifier) else { throw .verifierMalformed }
                guard verifierChallenge == challenge else { throw .verifierMismatch }
            } else if verifier != nil {
                throw .verifierWithoutChallenge
            }

            let grant = state.nextGrant
            state.nextGrant += 1
            state.grants[grant] = GrantRecord(
                clientID: clientID,
                scopes: authorization.scopes,
                refreshesWithoutSecret: !secretVerified
            )
            state.codes[code]?.redeemedAs = grant
            state.accessTokens[fresh.accessToken] = AccessTokenRecord(
                grant: grant, scopes: authorization.scopes, expiresAt: now + lifetime
            )
            if authorization.offline {
                state.refreshTokens[fresh.refreshToken] = RefreshTokenRecord(grant: grant)
            }
            state.codeExchangeCount += 1
            return TokenIssue(
                accessToken: fresh.accessToken,
                refreshToken: authorization.offline ? fresh.refreshToken : nil,
                scopes: authorization.scopes,
                lifetime: lifetime
            )
        }
    }

    /// Issues a new access token for a refresh token (grant_type=refresh_token).
    /// - Parameters:
    ///   - refreshToken: The refresh token.
    ///   - clientID: The authenticated client.
    ///   - secretVerified: Whether the client proved its secret.
    ///   - scopes: The narrower scopes asked for, or `nil` for all the grant has.
    ///   - fresh: The tokens to hand out on success.
    func refresh(
        _ refreshToken: String,
        clientID: String,
        secretVerified: Bool,
        scopes requested: [String]?,
        fresh: FreshTokens
    ) throws(OAuthFailure) -> TokenIssue {
        let now = ContinuousClock.now
        let lifetime = configuration.accessTokenLifetime
        let rotates = configuration.rotatesRefreshTokens
        return try state.withLock { state throws(OAuthFailure) -> TokenIssue in
            guard let record = state.refreshTokens[refreshToken], record.current,
                let grant = state.grants[record.grant], !grant.revoked
            else {
                throw .refreshTokenInvalid
            }
            guard grant.clientID == clientID else { throw .refreshTokenForAnotherClient }
            guard secretVerified || grant.refreshesWithoutSecret else { throw .clientSecretMissing }
            let scopes = requested ?? grant.scopes
            if let missing = scopes.first(where: { !grant.scopes.contains($0) }) {
                throw .scopeNotGranted(missing)
            }
            state.accessTokens[fresh.accessToken] = AccessTokenRecord(
                grant: record.grant, scopes: scopes, expiresAt: now + lifetime
            )
            if rotates {
                state.refreshTokens[refreshToken]?.current = false
                state.refreshTokens[fresh.refreshToken] = RefreshTokenRecord(grant: record.grant)
            }
            state.refreshCount += 1
            return TokenIssue(
                accessToken: fresh.accessToken,
                refreshToken: rotates ? fresh.refreshToken : nil,
                scopes: scopes,
                lifetime: lifetime
            )
        }
    }

    /// Issues an access and a refresh token for a new grant, without the authorize step.
    func issue(scopes: [String], fresh: FreshTokens) -> IssuedTokens {
        let now = ContinuousClock.now
        let lifetime = configuration.accessTokenLifetime
        state.withLock { state in
            let grant = state.nextGrant
            state.nextGrant += 1
            state.grants[grant] = GrantRecord(
                clientID: configuration.clientID,
                scopes: scopes,
                refreshesWithoutSecret: configuration.clientSecret == nil
            )
            state.accessTokens[fresh.accessToken] = AccessTokenRecord(
                grant: grant, scopes: scopes, expiresAt: now + lifetime)
            state.refreshTokens[fresh.refreshToken] = RefreshTokenRecord(grant: grant)
        }
        return IssuedTokens(
            accessToken: fresh.accessToken, refreshToken: fresh.refreshToken, lifetime: lifetime, scopes: scopes)
    }

    /// What the server knows about an access token.
    func status(ofAccessToken token: String) -> AccessTokenStatus {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let record = state.accessTokens[token], state.grants[record.grant]?.revoked == false else {
                return .invalid
            }
            return record.forcedExpired || now >= record.expiresAt ? .expired : .valid(scopes: record.scopes)
        }
    }

    /// Marks every access token issued so far as expired.
    func expireAllAccessTokens() {
        state.withLock { state in
            for token in state.accessTokens.keys {
                state.accessTokens[token]?.forcedExpired = true
            }
        }
    }

    /// Revokes the grant of a current refresh token: the refresh token and every access token
    /// issued from the same grant stop working.
    /// - Returns: Whether the token was current and its grant not yet revoked.
    @discardableResult
    func revokeGrant(ofRefreshToken token: String) -> Bool {
        state.withLock { state in
            guard let record = state.refreshTokens[token], record.current,
                state.grants[record.grant]?.revoked == false
            else {
                return false
            }
            state.grants[record.grant]?.revoked = true
            return true
        }
    }

    /// Revokes the grant of a usable access token.
    /// - Returns: The token's status before the call; the grant is revoked only when it was
    ///   ``AccessTokenStatus/valid(scopes:)``.
    func revokeGrant(ofAccessToken token: String) -> AccessTokenStatus {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let record = state.accessTokens[token], state.grants[record.grant]?.revoked == false else {
                return .invalid
            }
            if record.forcedExpired || now >= record.expiresAt {
                return .expired
            }
            state.grants[record.grant]?.revoked = true
            return .valid(scopes: record.scopes)
        }
    }
}
