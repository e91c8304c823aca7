public import Foundation
import StratusHTTP

/// A sign-in that has started: the URL to open in a browser, and what the app must keep to
/// check and finish it.
public struct PendingAuthorization: Sendable, CustomStringConvertible, CustomReflectable {
    /// The provider's authorization page, with every parameter filled in.
    public var url: URL
    /// The random `state` the redirect must carry back.
    public var state: String
    /// The PKCE pair; its verifier goes with the code exchange.
    public var pkce: PKCE
    /// The redirect URI the provider sends the browser back to.
    public var redirectURI: URL
    /// The scopes asked for.
    public var scopes: [String]

    /// The secret PKCE verifier.
    public var codeVerifier: String { pkce.verifier }

    /// Creates a pending sign-in; ``OAuthClient/makeAuthorization(redirectURI:scopes:)`` is the
    /// usual way.
    public init(url: URL, state: String, pkce: PKCE, redirectURI: URL, scopes: [String]) {
        self.url = url
        self.state = state
        self.pkce = pkce
        self.redirectURI = redirectURI
        self.scopes = scopes
    }

    /// The URL and state; the verifier is redacted.
    public var description: String {
        "PendingAuthorization(url: \(Redaction.url(url)), state: \(state), verifier: \(Redaction.placeholder))"
    }

    /// A mirror without the verifier, so `dump` is safe to log.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "url": Redaction.url(url), "state": state, "pkce": pkce,
                "redirectURI": redirectURI.absoluteString, "scopes": scopes,
            ])
    }
}
