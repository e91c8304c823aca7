import Foundation
import MockSupport

/// The client credentials a token request carries, in the body or as HTTP Basic.
struct ClientCredentials: Sendable {
    var clientID: String?
    var clientSecret: String?

    /// Reads the credentials from an `Authorization: Basic` header and the form.
    ///
    /// Both places may name the client, but only one may carry a secret; RFC 6749 §2.3.1 has
    /// the Basic user and password form-encoded, which is undone here.
    /// - Throws: ``OAuthFailure`` when the header is malformed or the two places disagree.
    init(authorization: String?, form: FormFields) throws(OAuthFailure) {
        let formID = form["client_id"]
        let formSecret = form["client_secret"]
        guard let authorization else {
            clientID = formID
            clientSecret = formSecret
            return
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else {
            throw .malformedBasicCredentials
        }
        let basicID = Self.formDecoded(text[..<colon])
        let basicSecret = Self.formDecoded(text[text.index(after: colon)...])
        guard formSecret == nil else { throw .conflictingCredentials }
        if let formID, formID != basicID { throw .conflictingCredentials }
        clientID = basicID
        clientSecret = basicSecret
    }

    /// Checks the credentials against the one registered client.
    /// - Returns: Whether the client proved its secret (`false` for a client that sent none).
    /// - Throws: ``OAuthFailure`` for a missing or unknown client ID or a wrong secret.
    func authenticate(against configuration: MockAuthorizationServer.Configuration) throws(OAuthFailure) -> Bool {
        guard let clientID, !clientID.isEmpty else { throw .clientIDMissing }
        guard clientID == configuration.clientID else { throw .clientUnknown }
        guard let clientSecret else { return false }
        guard let expected = configuration.clientSecret else { throw .clientSecretForPublicClient }
        guard Self.constantTimeEquals(clientSecret, expected) else { throw .clientSecretWrong }
        return true
    }

    /// A Basic credential's part with percent escapes undone; the part as sent if it is not
    /// valid percent encoding (many clients do not encode). `+` stays a plus, so a secret
    /// holding one works whether or not the client encoded it.
    private static func formDecoded(_ part: Substring) -> String {
        (try? PercentEncoding.decode(part, plusAsSpace: false)) ?? String(part)
    }

    /// Compares secrets in time that does not depend on where they differ.
    private static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
