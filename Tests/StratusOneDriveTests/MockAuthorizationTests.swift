import Foundation
import MockOAuth
import Stratus
import StratusHTTP
import StratusOAuth
import StratusTestSupport
import Testing

@testable import StratusOneDrive

/// Sign-in against the mock's Microsoft identity platform: an expired access token is refreshed
/// once, and the refresh token Microsoft replaces on every use is saved in place of the old one.
@Suite struct MockAuthorizationTests {
    @Test func anExpiredTokenIsRefreshedAndTheRotatedRefreshTokenSaved() async throws {
        try await MockFixture.withRunning { fixture in
            let authorization = fixture.server.authorization
            let issued = authorization.issueTokens()
            let folder = FileManager.default.temporaryDirectory.appending(path: "onedrive-auth-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = FileTokenStore(url: folder.appending(path: "token.json"))
            try await store.save(OAuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken))
            let http = try StratusHTTPClient()
            let client = OAuthClient(
                provider: .microsoft(
                    clientID: authorization.configuration.clientID,
                    clientSecret: authorization.configuration.clientSecret, loginURL: fixture.graphURL),
                http: http)
            let provider = CredentialProvider(client: client, store: store)
            let service = try OneDriveService(
                configuration: OneDriveConfiguration(apiURL: fixture.apiURL), credentials: .provider(provider),
                http: http)
            let path = try await expectOneRefreshAfterTokensExpire(
                service, expireAccessTokens: authorization.expireAllAccessTokens,
                refreshCount: { await provider.refreshCount })
            let saved = try #require(try await store.load())
            let rotated = try #require(saved.refreshToken)
            #expect(rotated != issued.refreshToken, "Microsoft replaces the refresh token on every use")
            #expect(saved.accessToken != issued.accessToken)

            // Once more: the saved (rotated) token is the one that works.
            authorization.expireAllAccessTokens()
            _ = try await service.metadata(of: path)
            #expect(await provider.refreshCount == 2)
            #expect(try await store.load()?.refreshToken != rotated)
            await http.shutdown()
        }
    }
}
