import Foundation
import InMemoryLogging
import Logging
import MockOAuth
import Stratus
import StratusHTTP
import StratusOAuth
import StratusTestSupport
import Testing

@Suite struct LogRedactionTests {
    @Test(arguments: [MockAuthorizationServer.Flavor.dropbox, .google])
    func traceLogsOfSignInRefreshAndRevocationCarryNoSecret(flavor: MockAuthorizationServer.Flavor) async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "stratus.oauth.test", factory: { _ in logs })
        logger.logLevel = .trace
        let verbose = logger
        let clientSecret = "client-SECRET-\(UUID().uuidString)"
        let secrets = try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            try await MockHarness.with(
                .init(flavor: flavor, clientSecret: clientSecret, rotatesRefreshTokens: true), httpLogger: verbose
            ) { mock in
                let client = mock.client(logger: verbose)
                var secrets = [clientSecret]
                var texts: [String] = []

                // Sign in, step by step, to learn the code and the verifier.
                let receiver = try LoopbackRedirectReceiver(logger: verbose)
                let pending = try client.makeAuthorization(
                    redirectURI: receiver.redirectURI, scopes: mock.server.configuration.scopes)
                async let code = receiver.waitForCode(state: pending.state, timeout: .seconds(20))
                let (redirect, _) = try await mock.followAsBrowser(pending.url)
                let received = try await code
                #expect(redirect.value("code") == received)
                let token = try await client.exchange(code: received, for: pending)
                secrets += [received, pending.codeVerifier, token.accessToken, try #require(token.refreshToken)]
                texts += [
                    pending.description, String(reflecting: pending), token.description, client.provider.description,
                ]

                // Keep it, have it refused, refresh (rotating) and retry.
                let store = FileTokenStore(url: folder.appendingPathComponent("token.json"))
                let provider = CredentialProvider(client: client, store: store, logger: verbose)
                try await provider.save(token)
                mock.server.expireAllAccessTokens()
                #expect(try await provider.perform(mock.protectedRequest).status == 200)
                let refreshed = try await provider.token()
                secrets += [refreshed.accessToken, try #require(refreshed.refreshToken)]
                #expect(refreshed.refreshToken != token.refreshToken)

                // A failing refresh with a revoked token, then sign out.
                let dead = OAuthToken(accessToken: "dead-access-\(UUID().uuidString)", refreshToken: token.refreshToken)
                secrets.append(dead.accessToken)
                do {
                    _ = try await client.refresh(dead)
                    Issue.record("a retired refresh token must be refused")
                } catch {
                    texts.append(String(describing: error))
                }
                try await provider.signOut()
                #expect(!mock.server.validate(accessToken: refreshed.accessToken).isValid)
                return (secrets, texts)
            }
        }
        let entries = logs.entries
        #expect(entries.count > 10)
        let logged = entries.map { entry in
            "\(entry.level) \(entry.message) \(entry.metadata) \(entry.error.map { String(describing: $0) } ?? "")"
        }
        let everything = (logged + secrets.1).joined(separator: "\n")
        for secret in secrets.0 {
            #expect(!everything.contains(secret), "a secret appeared in the logs or a description")
        }
        // The logs are there and useful: the token work can be followed.
        #expect(everything.contains("Token request"))
        #expect(everything.contains("Refreshing access token"))
        #expect(everything.contains("Revoking token"))
        #expect(everything.contains("Authorization code received"))
        #expect(everything.contains("HTTP response"))
        #expect(everything.contains(Redaction.placeholder))
    }
}
