public import Foundation

extension OAuthClient {
    /// Runs a whole sign-in for a desktop or command-line app: starts a
    /// ``LoopbackRedirectReceiver``, hands the authorization URL to `openBrowser`, waits for the
    /// redirect and exchanges the code.
    ///
    /// `openBrowser` runs while the receiver is already waiting, so it may block until the
    /// browser (or a test standing in for one) has followed the redirect.
    /// - Parameters:
    ///   - scopes: The scopes to ask for.
    ///   - port: The loopback port, or 0 for any free one.
    ///   - timeout: How long to wait for the browser.
    ///   - openBrowser: Shows the URL to the user: opens a browser, or prints it.
    /// - Returns: The new token; save it with ``CredentialProvider/save(_:)`` or a
    ///   ``TokenStore``.
    /// - Throws: ``/Stratus/ServiceError`` as ``LoopbackRedirectReceiver/waitForCode(state:timeout:)``
    ///   and ``exchange(code:for:)``, or what `openBrowser` throws.
    public func signIn(
        scopes: [String] = [],
        port: Int = 0,
        timeout: Duration = .seconds(300),
        openBrowser: (URL) async throws -> Void
    ) async throws -> OAuthToken {
        let receiver = try LoopbackRedirectReceiver(port: port, logger: logger)
        let pending = try makeAuthorization(redirectURI: receiver.redirectURI, scopes: scopes)
        async let code = receiver.waitForCode(state: pending.state, timeout: timeout)
        // If this throws, leaving the scope cancels the wait, which closes the socket at once.
        try await openBrowser(pending.url)
        return try await exchange(code: code, for: pending)
    }
}
