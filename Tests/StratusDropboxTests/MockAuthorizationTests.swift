import Foundation
import MockOAuth
import Stratus
import StratusDropbox
import StratusHTTP
import StratusOAuth
import StratusTestSupport
import Testing

/// Authorization against the mock: refresh-once through a credential provider, a fixed token,
/// and a service built from remote options.
@Suite struct MockAuthorizationTests {
    @Test func expiredTokenIsRefreshedOnceAndTheCallRepeated() async throws {
        try await MockFixture.withRunning { fixture in
            let authorization = fixture.server.authorization
            let issued = authorization.issueTokens()
            let store = InMemoryTokenStore(
                OAuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken))
            let client = OAuthClient(
                provider: .dropbox(
                    clientID: authorization.configuration.clientID,
                    clientSecret: authorization.configuration.clientSecret,
                    baseURL: fixture.baseURL
                ),
                http: try StratusHTTPClient()
            )
            let provider = CredentialProvider(client: client, store: store)
            let service = try DropboxService(
                configuration: DropboxConfiguration(
                    apiURL: fixture.baseURL, contentURL: fixture.baseURL, notifyURL: fixture.baseURL),
                credentials: .provider(provider)
            )
            try await expectOneRefreshAfterTokensExpire(
                service, expireAccessTokens: authorization.expireAllAccessTokens,
                refreshCount: { await provider.refreshCount })
        }
    }

    @Test func refusedFixedTokenIsUnauthorized() async throws {
        try await MockFixture.withRunning { fixture in
            try await expectFixedTokenRefused(
                try fixture.makeService(), token: fixture.accessToken,
                expireAccessTokens: fixture.server.authorization.expireAllAccessTokens)
        }
    }

    @Test func backendBuildsAWorkingService() async throws {
        try await MockFixture.withRunning { fixture in
            try await expectWorkingServiceFromOptions(
                DropboxBackend.self, typeName: "dropbox", accessToken: fixture.accessToken, apiURL: fixture.baseURL,
                chunkSize: 4_194_304, values: ["root": "/Apps/Stratus", "content_url": fixture.baseURL.absoluteString])
            let uploads = fixture.server.requestLog.entries(path: "/2/files/list_folder/continue")
            #expect(uploads.count >= 2)
        }
    }
}
