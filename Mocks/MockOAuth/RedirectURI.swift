import Foundation
import MockSupport

/// Checks redirect URIs and appends the authorize step's answer to them.
enum RedirectURI {
    /// Why a redirect URI is refused, or `nil` when it is acceptable.
    /// - Parameters:
    ///   - uri: The URI from the authorize request.
    ///   - allowed: The registered URIs, or `nil` to accept any absolute URI without a fragment.
    static func problem(with uri: String, allowed: [String]?) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme, !scheme.isEmpty else {
            return "redirect_uri is not an absolute URI."
        }
        guard components.fragment == nil else {
            return "redirect_uri must not have a fragment."
        }
        if ["http", "https"].contains(scheme.lowercased()), (components.host ?? "").isEmpty {
            return "redirect_uri has no host."
        }
        guard let allowed else { return nil }
        guard allowed.contains(where: { matches(uri, registered: $0) }) else {
            return "redirect_uri is not registered for this client."
        }
        return nil
    }

    /// Whether a URI matches a registered one: exactly, or for an `http` loopback address,
    /// on any port (RFC 8252 §7.3).
    static func matches(_ uri: String, registered: String) -> Bool {
        if uri == registered { return true }
        guard var given = URLComponents(string: uri), var expected = URLComponents(string: registered),
            given.scheme?.lowercased() == "http", expected.scheme?.lowercased() == "http",
            let host = expected.host?.lowercased(), ["127.0.0.1", "[::1]", "::1", "localhost"].contains(host)
        else {
            return false
        }
        given.port = nil
        expected.port = nil
        return given.string == expected.string
    }

    /// The URI with fields added to its query, every value percent-encoded.
    /// - Parameters:
    ///   - uri: The redirect URI, already checked.
    ///   - fields: The fields to add, in order.
    static func appending(_ fields: FormFields, to uri: String) -> String {
        let added = fields.encoded
        guard !added.isEmpty else { return uri }
        if !uri.contains("?") { return uri + "?" + added }
        if uri.hasSuffix("?") || uri.hasSuffix("&") { return uri + added }
        return uri + "&" + added
    }
}
