import Foundation
import Hummingbird
import MockSupport

/// `POST /2/auth/token/revoke` (Dropbox) and `POST /revoke` (Google).
struct RevokeEndpoint: Sendable {
    /// The largest body accepted: Dropbox's is empty or `null`, Google's one form field.
    static let bodyLimit = 16 * 1024

    let ledger: TokenLedger

    /// Dropbox: revokes the bearer token's grant (the access token, its refresh token and every
    /// access token issued from it) and answers 200 `null`. A missing, unknown or revoked
    /// token gets 401 `invalid_access_token`, an expired one `expired_access_token`.
    func respondForDropbox(to request: Request) async throws -> Response {
        var request = request
        let body = try await request.readBody(limit: Self.bodyLimit)
        let text = String(decoding: body.readableBytesView, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard text.isEmpty || text == "null" else {
            return Response.text(
                "Error in call to API function \"auth/token/revoke\": request body: could not decode input as JSON",
                status: .badRequest
            )
        }
        guard let token = Self.bearerToken(request.headers[.authorization]) else {
            return Response.text(
                "Error in call to API function \"auth/token/revoke\": Must provide HTTP header \"Authorization\" or URL parameter \"authorization\".",
                status: .badRequest
            )
        }
        switch ledger.revokeGrant(ofAccessToken: token) {
        case .valid:
            return Response.json(text: "null")
        case .expired:
            return Response.json(DropboxAuthError(tag: "expired_access_token"), status: .unauthorized)
        case .invalid:
            return Response.json(DropboxAuthError(tag: "invalid_access_token"), status: .unauthorized)
        }
    }

    /// Google: revokes the grant of the access or refresh token in the `token` query parameter
    /// or form field, answering 200 `{}`; an unknown, expired or revoked token gets 400
    /// `invalid_token`.
    func respondForGoogle(to request: Request) async throws -> Response {
        var request = request
        var token = (try? FormFields(parsing: request.uri.query ?? ""))?["token"]
        if token == nil, request.mediaType == "application/x-www-form-urlencoded" {
            token = try await request.readForm(limit: Self.bodyLimit)["token"]
        }
        guard let token, !token.isEmpty else {
            return Response.json(
                OAuthErrorBody(error: "invalid_request", errorDescription: "Bad Request"),
                status: .badRequest
            )
        }
        if ledger.revokeGrant(ofRefreshToken: token) || ledger.revokeGrant(ofAccessToken: token).isValid {
            return Response.json(text: "{}")
        }
        return Response.json(
            OAuthErrorBody(error: "invalid_token", errorDescription: "Token expired or revoked"),
            status: .badRequest
        )
    }

    /// The token of an `Authorization: Bearer <token>` header, or `nil`.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// Dropbox's 401 body: `{"error_summary": "invalid_access_token/...", "error": {".tag": "invalid_access_token"}}`.
struct DropboxAuthError: Encodable {
    struct Tag: Encodable {
        var tag: String
        enum CodingKeys: String, CodingKey { case tag = ".tag" }
    }

    var errorSummary: String
    var error: Tag

    init(tag: String) {
        errorSummary = "\(tag)/..."
        error = Tag(tag: tag)
    }

    enum CodingKeys: String, CodingKey {
        case errorSummary = "error_summary"
        case error
    }
}
