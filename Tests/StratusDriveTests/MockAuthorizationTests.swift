import Foundation
import MockOAuth
import Stratus
import StratusDrive
import StratusHTTP
import StratusOAuth
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
            let service = try service(fixture, provider)
            let path = try RemotePath("refresh/a.txt")
            let written = try await service.upload(from: .bytes(Data("a".utf8)), to: path)
            fixture.server.authorization.expireAllAccessTokens()
            let read = try await service.metadata(of: path)
            #expect(read.version == written.version)
            #expect(await provider.refreshCount == 1)
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
            let service = try fixture.makeService()
            fixture.server.authorization.expireAllAccessTokens()
            do {
                _ = try await service.list(.root)
                Issue.record("An expired fixed token was accepted.")
            } catch let error as ServiceError {
                #expect(error.code == .unauthorized)
                #expect(error.httpStatus == 401)
                #expect(error.providerError?.contains("authError") == true)
                #expect(!error.description.contains(fixture.accessToken))
            }
        }
    }

    @Test func backendBuildsAWorkingService() async throws {
        try await MockFixture.withRunning { fixture in
            let options = RemoteOptions(
                remoteName: "gd", typeName: "drive",
                values: [
                    "access_token": fixture.accessToken,
                    "api_url": fixture.baseURL.absoluteString,
                    "root": "Apps/Stratus",
                    "chunk_size": "262144",
                    "single_upload_limit": "1024",
                    "page_size": "2",
                ])
            let registry = ServiceRegistry(backends: [DriveBackend.self])
            let service = try registry.makeService(options: options)
            #expect(service.capabilities.chunkSize == 262_144)
            #expect(service.capabilities.largestSingleUpload == 1024)
            for index in 0..<5 {
                _ = try await service.upload(
                    from: .bytes(Data(repeating: UInt8(index), count: 2000)), to: try RemotePath("d/f\(index).bin"))
            }
            let listed = try await service.list(.root)
            #expect(listed.count == 5)
            #expect(listed.allSatisfy { $0.size == 2000 })
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
