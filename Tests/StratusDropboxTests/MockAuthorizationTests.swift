import Foundation
import MockOAuth
import Stratus
import StratusDropbox
import StratusHTTP
import StratusOAuth
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
            let path = try RemotePath("refresh/a.txt")
            let written = try await service.upload(from: .bytes(Data("a".utf8)), to: path)
            authorization.expireAllAccessTokens()
            let read = try await service.metadata(of: path)
            #expect(read.version == written.version)
            #expect(await provider.refreshCount == 1)
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
                #expect(!error.description.contains(fixture.accessToken))
            }
        }
    }

    @Test func backendBuildsAWorkingService() async throws {
        try await MockFixture.withRunning { fixture in
            let options = RemoteOptions(
                remoteName: "box", typeName: "dropbox",
                values: [
                    "access_token": fixture.accessToken,
                    "api_url": fixture.baseURL.absoluteString,
                    "content_url": fixture.baseURL.absoluteString,
                    "root": "/Apps/Stratus",
                    "chunk_size": "4194304",
                    "single_upload_limit": "1024",
                    "page_size": "2",
                ])
            let registry = ServiceRegistry(backends: [DropboxBackend.self])
            let service = try registry.makeService(options: options)
            #expect(service.capabilities.chunkSize == 4_194_304)
            #expect(service.capabilities.largestSingleUpload == 1024)
            for index in 0..<5 {
                _ = try await service.upload(
                    from: .bytes(Data(repeating: UInt8(index), count: 2000)), to: try RemotePath("d/f\(index).bin"))
            }
            let listed = try await service.list(.root)
            #expect(listed.count == 5)
            #expect(listed.allSatisfy { $0.size == 2000 })
            let uploads = fixture.server.requestLog.entries(path: "/2/files/list_folder/continue")
            #expect(uploads.count >= 2)
        }
    }
}
