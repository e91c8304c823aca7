public import Foundation
public import StratusHTTP

/// Decides whether an API answer means "this access token is expired or invalid", the one case
/// where a ``CredentialProvider`` refreshes and repeats a request.
///
/// Other 401s (a missing scope, a suspended user) are not helped by a new token and are passed
/// through untouched.
public struct TokenRejection: Sendable {
    private let test: @Sendable (_ status: Int, _ headers: StratusHTTPHeaders, _ body: Data) -> Bool

    /// Creates a rule from a test.
    /// - Parameter test: Receives the status, header fields and (error) body of an answer.
    public init(_ test: @escaping @Sendable (_ status: Int, _ headers: StratusHTTPHeaders, _ body: Data) -> Bool) {
        self.test = test
    }

    /// Whether an answer means the access token is expired or invalid.
    public func matches(status: Int, headers: StratusHTTPHeaders, body: Data) -> Bool {
        test(status, headers, body)
    }

    /// Whether a response means the access token is expired or invalid.
    public func matches(_ response: StratusHTTPResponse) -> Bool {
        test(response.status, response.headers, response.body)
    }

    /// RFC 6750: a 401 whose `WWW-Authenticate` challenge carries `error="invalid_token"`.
    public static let bearer = TokenRejection { status, headers, _ in
        status == 401 && challengeSaysInvalidToken(headers)
    }

    /// Dropbox: a 401 whose `error` union is `expired_access_token` or `invalid_access_token`
    /// (not `missing_scope`, `user_suspended`, …).
    public static let dropbox = TokenRejection { status, headers, body in
        guard status == 401 else { return false }
        if let answer = try? JSONDecoder().decode(DropboxAuthAnswer.self, from: body),
            let tag = answer.error?.tag
        {
            return tag == "expired_access_token" || tag == "invalid_access_token"
        }
        return challengeSaysInvalidToken(headers)
    }

    /// Google: a 401 whose error reason is `authError` or whose status is `UNAUTHENTICATED`.
    public static let google = TokenRejection { status, headers, body in
        guard status == 401 else { return false }
        if let answer = try? JSONDecoder().decode(GoogleErrorAnswer.self, from: body) {
            if answer.error.errors?.contains(where: { $0.reason == "authError" }) == true { return true }
            if answer.error.status == "UNAUTHENTICATED" { return true }
        }
        return challengeSaysInvalidToken(headers)
    }

    private static func challengeSaysInvalidToken(_ headers: StratusHTTPHeaders) -> Bool {
        headers.values(for: "WWW-Authenticate").contains { challenge in
            let lowered = challenge.lowercased()
            return lowered.contains("error=\"invalid_token\"") || lowered.contains("error=invalid_token")
        }
    }
}

/// `{"error_summary": "...", "error": {".tag": "expired_access_token"}}`
private struct DropboxAuthAnswer: Decodable {
    struct Union: Decodable {
        let tag: String?
        enum CodingKeys: String, CodingKey { case tag = ".tag" }
    }

    let error: Union?
}

/// `{"error": {"code": 401, "errors": [{"reason": "authError"}], "status": "UNAUTHENTICATED"}}`
private struct GoogleErrorAnswer: Decodable {
    struct Body: Decodable {
        struct Item: Decodable { let reason: String? }
        let errors: [Item]?
        let status: String?
    }

    let error: Body
}
