import Hummingbird
import MockSupport

/// `GET /oauth2/authorize` (Dropbox) and `GET /o/oauth2/v2/auth` (Google): the page a user
/// would see, replaced by an immediate answer from the simulated user.
struct AuthorizeEndpoint: Sendable {
    let configuration: MockAuthorizationServer.Configuration
    let ledger: TokenLedger
    let tokens: TokenFactory

    func respond(to request: Request) -> Response {
        let query: FormFields
        do {
            query = try FormFields(parsing: request.uri.query ?? "")
        } catch {
            return errorPage(.invalidRequest("The query is malformed: \(error)"))
        }
        let parsed: AuthorizationRequest
        switch AuthorizationRequest.parse(query, configuration: configuration) {
        case .success(let request): parsed = request
        case .failure(let error): return errorPage(error)
        }
        guard configuration.autoApprove else {
            return declined(parsed)
        }
        let code = tokens.authorizationCode()
        ledger.storeCode(code, for: parsed.authorization)
        guard let redirectURI = parsed.authorization.redirectURI else {
            // Dropbox's flow without a redirect: the page shows the code for the user to paste.
            return Response.html(
                title: "Access code generated",
                message: "Enter this code into your app to finish the process: \(code)",
                status: .ok
            )
        }
        var fields = FormFields()
        switch configuration.flavor {
        case .dropbox:
            fields.append("code", code)
            if let state = parsed.state { fields.append("state", state) }
        case .google:
            if let state = parsed.state { fields.append("state", state) }
            fields.append("code", code)
            fields.append("scope", parsed.authorization.scopes.joined(separator: " "))
        case .microsoft:
            fields.append("code", code)
            if let state = parsed.state { fields.append("state", state) }
        }
        return redirect(to: RedirectURI.appending(fields, to: redirectURI))
    }

    /// The simulated user chose not to give the app access.
    private func declined(_ request: AuthorizationRequest) -> Response {
        guard let redirectURI = request.authorization.redirectURI else {
            return Response.html(
                title: "Access denied",
                message: "The user chose not to give the app access.",
                status: .forbidden
            )
        }
        var fields: FormFields = ["error": "access_denied"]
        if configuration.flavor == .dropbox {
            fields.append("error_description", "The user chose not to give your app access to their Dropbox account.")
        }
        if let state = request.state { fields.append("state", state) }
        return redirect(to: RedirectURI.appending(fields, to: redirectURI))
    }

    private func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    private func errorPage(_ error: AuthorizationPageError) -> Response {
        Response.html(title: "Error 400: \(error.code)", message: error.message, status: .badRequest)
    }
}
