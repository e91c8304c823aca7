import Hummingbird
import MockSupport

/// `POST /oauth2/token` (Dropbox) and `POST /token` (Google): code exchange and refresh.
struct TokenEndpoint: Sendable {
    /// The largest form body accepted.
    static let bodyLimit = 16 * 1024

    let configuration: MockAuthorizationServer.Configuration
    let ledger: TokenLedger
    let tokens: TokenFactory

    func respond(to request: Request) async throws -> Response {
        do {
            guard request.mediaType == "application/x-www-form-urlencoded" else {
                throw OAuthFailure.wrongContentType(request.headers[.contentType])
            }
            var request = request
            let form: FormFields
            do {
                form = try await request.readForm(limit: Self.bodyLimit)
            } catch let error as HTTPError where error.status == .badRequest {
                throw OAuthFailure.malformedForm
            }
            if let repeated = form.repeatedNames.first {
                throw OAuthFailure.parameterRepeated(repeated)
            }
            guard let grantType = form["grant_type"], !grantType.isEmpty else {
                throw OAuthFailure.grantTypeMissing
            }
            let credentials = try ClientCredentials(authorization: request.headers[.authorization], form: form)
            switch grantType {
            case "authorization_code":
                return try exchangeCode(form, credentials: credentials)
            case "refresh_token":
                return try refresh(form, credentials: credentials)
            default:
                throw OAuthFailure.grantTypeUnsupported(grantType)
            }
        } catch let failure as OAuthFailure {
            return failure.response(for: configuration.flavor)
        }
    }

    private func exchangeCode(_ form: FormFields, credentials: ClientCredentials) throws(OAuthFailure) -> Response {
        let secretVerified = try credentials.authenticate(against: configuration)
        guard let code = form["code"], !code.isEmpty else { throw .parameterMissing("code") }
        let verifier = form["code_verifier"]
        // A client proves itself with its secret or, in a PKCE flow, with the verifier.
        if !secretVerified, verifier == nil {
            throw configuration.clientSecret == nil ? .verifierMissing : .clientSecretMissing
        }
        let issue = try ledger.exchange(
            code: code,
            clientID: configuration.clientID,
            secretVerified: secretVerified,
            redirectURI: form["redirect_uri"],
            verifier: verifier,
            fresh: FreshTokens(tokens)
        )
        return TokenResponse.response(for: issue, isCodeExchange: true, configuration: configuration)
    }

    private func refresh(_ form: FormFields, credentials: ClientCredentials) throws(OAuthFailure) -> Response {
        let secretVerified = try credentials.authenticate(against: configuration)
        guard let refreshToken = form["refresh_token"], !refreshToken.isEmpty else {
            throw .parameterMissing("refresh_token")
        }
        let scopes = form["scope"].map { $0.split(separator: " ").map(String.init) }
        let issue = try ledger.refresh(
            refreshToken,
            clientID: configuration.clientID,
            secretVerified: secretVerified,
            scopes: scopes?.isEmpty == true ? nil : scopes,
            fresh: FreshTokens(tokens)
        )
        return TokenResponse.response(for: issue, isCodeExchange: false, configuration: configuration)
    }
}
