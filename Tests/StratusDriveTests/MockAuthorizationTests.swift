import Foundation
import MockOAuth
import Stratus
import StratusDrive
import StratusHTTP
import StratusOAuth
import StratusTestSupport
import Testing

/// Authorization against the mock: refresh-once through a credential provider, a fixed token,
/// a revoked sign-in, and a service built from remote options.
@Suite struct MockAuthorizationTests {
    private func provider(_ fixture: MockFixture, refreshToken: String, accessToken: String) throws
        -> CredentialProvider
    {
        let authorization = fixture.server.authorization
        let client = OAuthClient(
            provider: .google(
                clientID: authorization.configuration.clientID,
                clientSecret: authorization.configuration.clientSecret,
                baseURL: fixture.baseURL
            ),
            http: try StratusHTTPClient()
        )
        return CredentialProvider(
            client: client, store: InMemoryTokenStore(OAuthToken(accessToken: accessToken, refreshToken: refreshToken)))
    }

    private func service(_ fixture: MockFixture, _ provider: CredentialProvider) throws -> DriveService {
        try DriveService(
            configuration: DriveConfiguration(apiURL: fixture.baseURL, uploadURL: fixture.baseURL),
            credentials: .provider(provider)
        )
    }

    @Test func expiredTokenIsRefreshedOnceAndTheCallRepeated() async throws {
        try await MockFixture.withRunning { fixture in
            let issued = fixture.server.authorization.issueTokens()
            let provider = try provider(fixture, refreshToken: issued.refreshToken, accessToken: issued.accessToken)
            try await expectOneRefreshAfterTokensExpire(
                try service(fixture, provider), expireAccessTokens: fixture.server.authorization.expireAllAccessTokens,
                refreshCount: { await provider.refreshCount })
        }
    }

    @Test func revokedSignInNeedsReauthentication() async throws {
        try await MockFixture.withRunning { fixture in
            let issued = fixture.server.authorization.issueTokens()
            let provider = try provider(fixture, refreshToken: issued.refreshToken, accessToken: issued.accessToken)
            let service = try service(fixture, provider)
            #expect(fixture.server.authorization.revoke(refreshToken: issued.refreshToken))
            fixture.server.authorization.expireAllAccessTokens()
            do {
                _ = try await service.list(.root)
                Issue.record("A revoked sign-in was accepted.")
            } catch let error as ServiceError {
                #expect(error.code == .reauthenticationRequired)
                #expect(!error.description.contains(issued.refreshToken))
                #expect(!error.description.contains(issued.accessToken))
            }
        }
    }

    @Test func refusedFixedTokenIsUnauthorized() async throws {
        try await MockFixture.withRunning { fixture in
            let error = await expectFixedTokenRefused(
                try fixture.makeService(), token: fixture.accessToken,
                expireAccessTokens: fixture.server.authorization.expireAllAccessTokens)
            #expect(error?.httpStatus == 401)
            #expect(error?.providerError?.contains("authError") == true)
        }
    }

    @Test func backendBuildsAWorkingService() async throws {
        try await MockFixture.withRunning { fixture in
            try await expectWorkingServiceFromOptions(
                DriveBackend.self, typeName: "drive", accessToken: fixture.accessToken, apiURL: fixture.baseURL,
                chunkSize: 262_144, values: ["root": "Apps/Stratus"])
            let pages = fixture.server.requestLog.entries {
                $0.path == "/drive/v3/files" && $0.queryValue("pageToken") != nil
            }
            #expect(pages.count >= 2)
            #expect(
                fixture.server.requestLog.entries { $0.method == "POST" && $0.queryValue("uploadType") == "resumable" }
                    .count == 5)
        }
    }
}
