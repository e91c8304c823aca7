import MockSupport

/// The parameters of a request to the authorize endpoint, checked against the configuration.
struct AuthorizationRequest: Sendable {
    /// The authorization to remember under a code.
    var authorization: ApprovedAuthorization
    /// The `state`, echoed exactly.
    var state: String?

    /// The longest `state` Dropbox accepts, in bytes.
    static let dropboxStateLimit = 500

    /// Parses and checks the query.
    /// - Parameters:
    ///   - query: The decoded query parameters.
    ///   - configuration: The server's configuration.
    /// - Returns: The request, or a sentence for the error page.
    static func parse(
        _ query: FormFields,
        configuration: MockAuthorizationServer.Configuration
    ) -> Result<AuthorizationRequest, AuthorizationPageError> {
        let flavor = configuration.flavor
        if let repeated = query.repeatedNames.first {
            return .failure(.invalidRequest("The parameter \(repeated) was given more than once."))
        }
        guard let clientID = query["client_id"], !clientID.isEmpty else {
            return .failure(.invalidRequest("Missing required parameter: client_id"))
        }
        guard clientID == configuration.clientID else {
            return .failure(.invalidClient("Invalid client_id: \"\(clientID)\""))
        }
        guard let responseType = query["response_type"] else {
            return .failure(.invalidRequest("Missing required parameter: response_type"))
        }
        guard responseType == "code" else {
            return .failure(.unsupportedResponseType("response_type must be \"code\", not \"\(responseType)\"."))
        }

        let redirectURI = query["redirect_uri"]
        if let redirectURI {
            if let problem = RedirectURI.problem(with: redirectURI, allowed: configuration.allowedRedirectURIs) {
                return .failure(.redirectURIRefused(problem))
            }
        } else if flavor == .google {
            return .failure(.invalidRequest("Missing required parameter: redirect_uri"))
        }

        let state = query["state"]
        if flavor == .dropbox, let state, state.utf8.count > dropboxStateLimit {
            return .failure(.invalidRequest("state is longer than \(dropboxStateLimit) bytes."))
        }

        let challenge = query["code_challenge"]
        let method = query["code_challenge_method"]
        if let challenge {
            guard PKCE.isWellFormed(challenge) else {
                return .failure(.invalidRequest("code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~"))
            }
            guard method == PKCE.method else {
                return .failure(.invalidRequest("code_challenge_method must be S256, not \(method ?? "missing")."))
            }
        } else if method != nil {
            return .failure(.invalidRequest("code_challenge_method given without code_challenge."))
        } else if configuration.clientSecret == nil {
            return .failure(.invalidRequest("This public client must use PKCE: code_challenge is missing."))
        }

        let scopes: [String]
        switch parseScopes(query["scope"], configuration: configuration) {
        case .success(let parsed): scopes = parsed
        case .failure(let error): return .failure(error)
        }

        let offline: Bool
        switch flavor {
        case .dropbox:
            let accessType = query["token_access_type"]
            guard accessType == nil || ["offline", "online", "legacy"].contains(accessType) else {
                return .failure(.invalidRequest("token_access_type must be offline, online or legacy."))
            }
            offline = accessType == "offline"
        case .google:
            let accessType = query["access_type"]
            guard accessType == nil || ["offline", "online"].contains(accessType) else {
                return .failure(.invalidRequest("Invalid access_type: \(accessType ?? "")"))
            }
            offline = accessType == "offline"
        case .microsoft:
            offline = scopes.contains("offline_access")
        }

        return .success(
            AuthorizationRequest(
                authorization: ApprovedAuthorization(
                    clientID: clientID,
                    redirectURI: redirectURI,
                    codeChallenge: challenge,
                    scopes: scopes,
                    offline: offline
                ),
                state: state
            ))
    }

    /// The resource Microsoft's scopes may start with.
    private static let graphResource = "https://graph.microsoft.com/"

    /// The space-separated scopes asked for, each one the app may have; none asked for means
    /// all of them for Dropbox, and is an error for Google, which requires `scope`.
    private static func parseScopes(
        _ text: String?,
        configuration: MockAuthorizationServer.Configuration
    ) -> Result<[String], AuthorizationPageError> {
        let requested = (text ?? "").split(separator: " ", omittingEmptySubsequences: true).map { scope in
            // Microsoft names Graph's scopes with or without the resource in front.
            configuration.flavor == .microsoft && scope.hasPrefix(graphResource)
                ? String(scope.dropFirst(graphResource.count)) : String(scope)
        }
        guard !requested.isEmpty else {
            return configuration.flavor != .dropbox
                ? .failure(.invalidRequest("Missing required parameter: scope"))
                : .success(configuration.scopes)
        }
        if let unknown = requested.first(where: { !configuration.scopes.contains($0) }) {
            return .failure(.invalidScope("The app may not ask for the scope \"\(unknown)\"."))
        }
        var unique: [String] = []
        for scope in requested where !unique.contains(scope) {
            unique.append(scope)
        }
        return .success(unique)
    }
}

/// Why the authorize endpoint shows an error page instead of redirecting.
enum AuthorizationPageError: Error, Sendable, Equatable {
    case invalidRequest(String)
    case invalidClient(String)
    case unsupportedResponseType(String)
    case redirectURIRefused(String)
    case invalidScope(String)

    /// The RFC 6749 error code shown on the page.
    var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .invalidClient: "invalid_client"
        case .unsupportedResponseType: "unsupported_response_type"
        case .redirectURIRefused: "redirect_uri_mismatch"
        case .invalidScope: "invalid_scope"
        }
    }

    /// The sentence shown on the page.
    var message: String {
        switch self {
        case .invalidRequest(let message), .invalidClient(let message), .unsupportedResponseType(let message),
            .redirectURIRefused(let message), .invalidScope(let message):
            message
        }
    }
}
