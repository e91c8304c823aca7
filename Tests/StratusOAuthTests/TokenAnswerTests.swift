import Foundation
import Stratus
import StratusHTTP
import Testing

@testable import StratusOAuth

@Suite struct TokenAnswerTests {
    let issued = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func parsesDropboxCodeExchange() throws {
        let body = Data(
            #"""
            {"access_token": "sl.AAA", "token_type": "bearer", "expires_in": 14400,
             "refresh_token": "rrr", "scope": "account_info.read files.content.read",
             "uid": "12345", "account_id": "dbid:AAH4f99"}
            """#.utf8)
        let token = try TokenEndpointAnswer.token(from: body, issuedAt: issued, previous: nil, requestedScopes: [])
        #expect(token.accessToken == "sl.AAA")
        #expect(token.refreshToken == "rrr")
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_700_014_400))
        #expect(token.scopes == ["account_info.read", "files.content.read"])
        #expect(token.tokenType == "bearer")
    }

    @Test func parsesGoogleAnswerAndKeepsRefreshTokenWhenNoneReturned() throws {
        let previous = OAuthToken(
            accessToken: "ya29.old", refreshToken: "1//keep", scopes: ["https://www.googleapis.com/auth/drive"])
        let body = Data(
            #"""
            {"access_token": "ya29.new", "expires_in": 3599, "scope": "https://www.googleapis.com/auth/drive",
             "token_type": "Bearer", "id_token": "eyJ..."}
            """#.utf8)
        let token = try TokenEndpointAnswer.token(from: body, issuedAt: issued, previous: previous, requestedScopes: [])
        #expect(token.accessToken == "ya29.new")
        #expect(token.refreshToken == "1//keep")
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_700_003_599))
        #expect(token.tokenType == "Bearer")
    }

    @Test func keepsARotatedRefreshTokenAndPreviousScopes() throws {
        let previous = OAuthToken(accessToken: "a", refreshToken: "old", scopes: ["s1", "s2"])
        let body = Data(
            #"{"access_token": "b", "token_type": "bearer", "expires_in": "60", "refresh_token": "new"}"#.utf8)
        let token = try TokenEndpointAnswer.token(from: body, issuedAt: issued, previous: previous, requestedScopes: [])
        #expect(token.refreshToken == "new")
        #expect(token.scopes == ["s1", "s2"])
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_700_000_060))
    }

    @Test func rejectsAnswersWithoutAnAccessToken() {
        for body in [#"{"token_type": "bearer"}"#, "<html>", #"{"access_token": ""}"#] {
            #expect(throws: ServiceError.self) {
                try TokenEndpointAnswer.token(
                    from: Data(body.utf8), issuedAt: issued, previous: nil, requestedScopes: [])
            }
        }
    }

    @Test func refusesALifetimeThatIsNotANumberOfSeconds() {
        for lifetime in [#""nan""#, #""inf""#, #""-inf""#, "-5", #""1e300""#] {
            let body = Data(#"{"access_token": "fresh", "token_type": "bearer", "expires_in": \#(lifetime)}"#.utf8)
            let error = #expect(throws: ServiceError.self) {
                try TokenEndpointAnswer.token(from: body, issuedAt: issued, previous: nil, requestedScopes: [])
            }
            #expect(error?.code == .invalidResponse, "\(lifetime)")
            #expect(error?.message.contains("expires_in") == true, "\(String(describing: error))")
            #expect(error?.message.contains("fresh") == false)
        }
    }

    private func error(
        _ status: Int, _ body: String, headers: StratusHTTPHeaders = [:], grant: TokenGrant = .refreshToken
    ) -> ServiceError {
        ServiceError.tokenEndpoint(
            status: status, headers: headers, body: Data(body.utf8),
            grant: grant, provider: "Dropbox", signInHint: "Run `app login`.", secrets: ["refresh-SECRET"]
        )
    }

    @Test func invalidGrantMeansSignInAgain() {
        let dropbox = error(
            400, #"{"error": "invalid_grant", "error_description": "refresh token is invalid or revoked"}"#)
        #expect(dropbox.code == .reauthenticationRequired)
        #expect(dropbox.providerError == "invalid_grant")
        #expect(dropbox.message.contains("Run `app login`."))
        let google = error(
            400, #"{"error": "invalid_grant", "error_description": "Token has been expired or revoked."}"#)
        #expect(google.code == .reauthenticationRequired)
        #expect(!google.code.isTransient)
        let code = error(400, #"{"error": "invalid_grant"}"#, grant: .authorizationCode)
        #expect(code.code == .reauthenticationRequired)
        #expect(code.message.contains("authorization code"))
    }

    @Test func otherFailuresMapToTheirCodes() {
        #expect(
            error(401, #"{"error": "invalid_client", "error_description": "Unauthorized"}"#).code
                == .invalidConfiguration)
        #expect(error(503, "Service Unavailable").code == .server)
        #expect(error(400, #"{"error": "temporarily_unavailable"}"#).code == .server)
        let limited = error(429, "{}", headers: ["Retry-After": "7"])
        #expect(limited.code == .rateLimited)
        #expect(limited.retryAfter == .seconds(7))
        // The HTTP-date form counts too: a date long past is no wait, one far ahead a long one.
        #expect(error(429, "{}", headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"]).retryAfter == .zero)
        #expect(
            (error(429, "{}", headers: ["Retry-After": "Fri, 01 Jan 2100 00:00:00 GMT"]).retryAfter ?? .zero)
                > .seconds(86_400))
        #expect(error(400, #"{"error": "invalid_request"}"#).code == .unauthorized)
        #expect(error(400, "plain text").code == .invalidResponse)
    }

    @Test func echoedSecretsAreScrubbedFromMessages() {
        let echoed = error(400, #"{"error": "invalid_grant", "error_description": "bad token refresh-SECRET"}"#)
        #expect(!echoed.description.contains("refresh-SECRET"))
        #expect(echoed.description.contains("<redacted>"))
    }
}

@Suite struct TokenRejectionTests {
    private func matches(_ rule: TokenRejection, _ status: Int, _ body: String, headers: StratusHTTPHeaders = [:])
        -> Bool
    {
        rule.matches(status: status, headers: headers, body: Data(body.utf8))
    }

    @Test func dropboxRefreshesOnlyForExpiredOrInvalidTokens() {
        #expect(
            matches(
                .dropbox, 401,
                #"{"error_summary": "expired_access_token/..", "error": {".tag": "expired_access_token"}}"#))
        #expect(
            matches(
                .dropbox, 401,
                #"{"error_summary": "invalid_access_token/..", "error": {".tag": "invalid_access_token"}}"#))
        #expect(
            !matches(
                .dropbox, 401,
                #"{"error_summary": "missing_scope/..", "error": {".tag": "missing_scope", "required_scope": "files.content.write"}}"#
            ))
        #expect(!matches(.dropbox, 401, #"{"error": {".tag": "user_suspended"}}"#))
        #expect(!matches(.dropbox, 409, #"{"error": {".tag": "expired_access_token"}}"#))
        #expect(!matches(.dropbox, 200, "{}"))
    }

    @Test func googleRefreshesOnAuthError() {
        let body =
            #"{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "errors": [{"message": "Invalid Credentials", "domain": "global", "reason": "authError", "location": "Authorization", "locationType": "header"}], "status": "UNAUTHENTICATED"}}"#
        #expect(matches(.google, 401, body))
        #expect(matches(.google, 401, #"{"error": {"code": 401, "status": "UNAUTHENTICATED"}}"#))
        #expect(
            !matches(.google, 403, #"{"error": {"code": 403, "errors": [{"reason": "insufficientFilePermissions"}]}}"#))
        #expect(!matches(.google, 401, "not json"))
    }

    @Test func bearerChallengeCountsForEveryProvider() {
        let headers: StratusHTTPHeaders = [
            "WWW-Authenticate": #"Bearer realm="x", error="invalid_token", error_description="expired""#
        ]
        #expect(matches(.bearer, 401, "", headers: headers))
        #expect(matches(.dropbox, 401, "", headers: headers))
        #expect(matches(.google, 401, "", headers: headers))
        #expect(!matches(.bearer, 401, "", headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope""#]))
    }
}
