import Foundation
import MockOAuth
import Stratus
import StratusHTTP
import StratusOAuth
import StratusTestSupport
import Testing

@Suite struct SignInTests {
    @Test(arguments: [MockAuthorizationServer.Flavor.dropbox, .google])
    func fullSignInWithoutABrowserSavesTheTokens(flavor: MockAuthorizationServer.Flavor) async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            try await MockHarness.with(.init(flavor: flavor)) { mock in
                let client = mock.client()
                let store = FileTokenStore(url: folder.appendingPathComponent("\(flavor).json"))
                let pages = Recorder()
                let token = try await client.signIn(scopes: mock.server.configuration.scopes, timeout: .seconds(20)) {
                    url in
                    let (redirect, page) = try await mock.followAsBrowser(url)
                    #expect(redirect.host == "127.0.0.1")
                    #expect(redirect.path == "/callback")
                    #expect(redirect.value("code") != nil)
                    pages.append(page)
                }
                #expect(pages.all.first?.contains("You are signed in") == true)
                #expect(mock.server.codeExchangeCount == 1)
                #expect(
                    mock.server.validate(accessToken: token.accessToken)
                        == .valid(scopes: mock.server.configuration.scopes))
                #expect(token.refreshToken != nil)
                #expect(token.scopes == mock.server.configuration.scopes)
                #expect(!token.isExpired(margin: .seconds(300)))

                let provider = CredentialProvider(client: client, store: store)
                try await provider.save(token)
                #expect(try await store.load() == token)
                #expect(try permissions(of: store.url) == 0o600)
                let response = try await provider.perform(mock.protectedRequest)
                #expect(response.status == 200)
                #expect(mock.tokenRequests == 1, "the fresh token is used without a refresh")
            }
        }
    }

    @Test func signInStepByStepWithAPublicPKCEClient() async throws {
        try await MockHarness.with(.init(flavor: .dropbox, clientSecret: nil)) { mock in
            let client = mock.client()
            let receiver = try LoopbackRedirectReceiver()
            let pending = try client.makeAuthorization(
                redirectURI: receiver.redirectURI, scopes: ["files.content.read"])
            async let code = receiver.waitForCode(state: pending.state, timeout: .seconds(20))
            let (redirect, _) = try await mock.followAsBrowser(pending.url)
            #expect(redirect.value("state") == pending.state)
            let token = try await client.exchange(code: try await code, for: pending)
            #expect(token.scopes == ["files.content.read"])
            #expect(mock.server.validate(accessToken: token.accessToken).isValid)

            // The code is single-use: a second exchange is refused and says to sign in again.
            let again = await #expect(throws: ServiceError.self) {
                try await client.exchange(code: redirect.value("code") ?? "", for: pending)
            }
            #expect(again?.code == .reauthenticationRequired)
        }
    }

    @Test func aDeclinedSignInIsATypedError() async throws {
        try await MockHarness.with(.init(flavor: .dropbox, autoApprove: false)) { mock in
            let error = await #expect(throws: ServiceError.self) {
                _ = try await mock.client().signIn(timeout: .seconds(20)) { url in
                    let (redirect, page) = try await mock.followAsBrowser(url)
                    #expect(redirect.value("error") == "access_denied")
                    #expect(page.contains("Access was not granted"))
                }
            }
            #expect(error?.code == .permissionDenied)
            #expect(error?.providerError == "access_denied")
            #expect(mock.tokenRequests == 0)
        }
    }

    @Test func aFailingBrowserStepEndsTheWaitAtOnce() async throws {
        try await MockHarness.with(.init(flavor: .google)) { mock in
            struct NoBrowser: Error {}
            // The browser step's own error, not the 60-second timeout, ends the sign-in.
            await #expect(throws: NoBrowser.self) {
                _ = try await mock.client().signIn(timeout: .seconds(60)) { _ in throw NoBrowser() }
            }
        }
    }

    @Test(arguments: [MockAuthorizationServer.Flavor.dropbox, .google])
    func signOutRevokesTheGrantAndClearsTheStore(flavor: MockAuthorizationServer.Flavor) async throws {
        try await MockHarness.with(.init(flavor: flavor)) { mock in
            let token = mock.issueToken()
            let store = InMemoryTokenStore(token)
            let provider = CredentialProvider(client: mock.client(), store: store)
            try await provider.signOut()
            #expect(mock.server.validate(accessToken: token.accessToken) == .invalid)
            #expect(try await store.load() == nil)
            // The refresh token is dead too.
            let error = await #expect(throws: ServiceError.self) { try await mock.client().refresh(token) }
            #expect(error?.code == .reauthenticationRequired)
            // Signing out again, with nothing stored, is fine.
            try await provider.signOut()
        }
    }

    @Test func signOutWithAnExpiredAccessTokenRefreshesFirst() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            let token = mock.issueToken()
            mock.server.expireAllAccessTokens()
            let store = InMemoryTokenStore(token)
            let provider = CredentialProvider(client: mock.client(), store: store)
            try await provider.signOut()
            #expect(mock.server.refreshCount == 1)
            #expect(try await store.load() == nil)
            await #expect(throws: ServiceError.self) { try await mock.client().refresh(token) }
        }
    }
}
