import Foundation
import MockOAuth
import Stratus
import StratusHTTP
import StratusOAuth
import StratusTestSupport
import Testing

@Suite struct CredentialProviderTests {
    @Test func twoHundredConcurrentCallersWithAnExpiredTokenShareOneRefresh() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            let stale = mock.issueToken(expired: true)
            mock.server.expireAllAccessTokens()
            let store = CountingStore(stale)
            let provider = CredentialProvider(client: mock.client(), store: store)
            let headers = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        if index.isMultiple(of: 2) { return try await provider.authorizationHeader() }
                        let response = try await provider.perform(mock.protectedRequest)
                        #expect(response.status == 200)
                        return try await provider.authorizationHeader()
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(mock.server.refreshCount == 1)
            #expect(mock.tokenRequests == 1)
            #expect(await provider.refreshCount == 1)
            #expect(store.updates == 1, "one flight: the callers did not even queue on the store")
            #expect(headers.count == 1)
            #expect(headers.first != stale.authorizationHeaderValue)
            #expect(!mock.seenTokens.all.contains(stale.accessToken), "the expired token was never sent")
        }
    }

    @Test func twoHundredConcurrentRequestsRefusedWith401ShareOneRefreshAndRetryOnce() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            // The clock says the token is good; the server says it expired.
            let token = mock.issueToken()
            let store = CountingStore(token)
            let provider = CredentialProvider(client: mock.client(), store: store)
            _ = try await provider.authorizationHeader()
            mock.server.expireAllAccessTokens()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 {
                    group.addTask { try await provider.perform(mock.protectedRequest).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(mock.server.refreshCount == 1)
            #expect(store.updates == 2, "one to load, one to refresh")
            let seen = mock.seenTokens.all
            #expect(seen.count <= 400, "at most one retry per request")
            #expect(Set(seen).count == 2, "the old token, then the one new token")
            let newToken = try await provider.token()
            #expect(seen.filter { $0 == newToken.accessToken }.count == 200)
        }
    }

    @Test func a401RefreshesOnceAndRetriesWithTheNewHeaderNeverTheOld() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            let token = mock.issueToken()
            let store = InMemoryTokenStore(token)
            let provider = CredentialProvider(client: mock.client(), store: store)
            mock.server.expireAllAccessTokens()
            let headers = Recorder()
            let response = try await provider.perform(
                { authorization in
                    headers.append(authorization)
                    var request = mock.protectedRequest
                    request.headers.set("Authorization", authorization)
                    return try await mock.http.execute(request)
                }, isTokenRejected: { mock.provider.tokenRejection.matches($0) })
            #expect(response.status == 200)
            #expect(mock.server.refreshCount == 1)
            let sent = headers.all
            #expect(sent.count == 2)
            #expect(sent.first == token.authorizationHeaderValue)
            #expect(sent.last != token.authorizationHeaderValue)
            let saved = try #require(try await store.load())
            #expect(sent.last == saved.authorizationHeaderValue, "the refreshed token was saved")
            #expect(saved.refreshToken == token.refreshToken, "Dropbox does not rotate: the refresh token is kept")
        }
    }

    @Test func aSecondRefusalIsAnErrorNotALoop() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            let provider = CredentialProvider(client: mock.client(), store: InMemoryTokenStore(mock.issueToken()))
            let attempts = Recorder()
            let error = await #expect(throws: ServiceError.self) {
                _ = try await provider.perform(
                    { authorization in
                        attempts.append(authorization)
                        return 401
                    }, isTokenRejected: { $0 == 401 })
            }
            #expect(error?.code == .unauthorized)
            #expect(attempts.all.count == 2)
            #expect(Set(attempts.all).count == 2)
            #expect(mock.server.refreshCount == 1)
        }
    }

    @Test func otherFailuresAreNotRetried() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            let provider = CredentialProvider(client: mock.client(), store: InMemoryTokenStore(mock.issueToken()))
            let attempts = Recorder()
            let status = try await provider.perform(
                { authorization in
                    attempts.append(authorization)
                    return 409
                }, isTokenRejected: { $0 == 401 })
            #expect(status == 409)
            #expect(attempts.all.count == 1)
            #expect(mock.tokenRequests == 0)
        }
    }

    @Test func refreshesAheadOfExpiryWithinTheMargin() async throws {
        try await MockHarness.with(.init(flavor: .google)) { mock in
            var token = mock.issueToken()
            token.expiresAt = Date().addingTimeInterval(120)
            let store = InMemoryTokenStore(token)
            let early = CredentialProvider(client: mock.client(), store: store, refreshMargin: .seconds(300))
            let header = try await early.authorizationHeader()
            #expect(header != token.authorizationHeaderValue)
            #expect(mock.server.refreshCount == 1)
            #expect(try await store.load()?.authorizationHeaderValue == header)

            var fresh = mock.issueToken()
            fresh.expiresAt = Date().addingTimeInterval(120)
            let late = CredentialProvider(
                client: mock.client(), store: InMemoryTokenStore(fresh), refreshMargin: .seconds(60))
            #expect(try await late.authorizationHeader() == fresh.authorizationHeaderValue)
            #expect(mock.server.refreshCount == 1)
        }
    }

    @Test func aRevokedRefreshTokenRequiresSigningInAgainWithoutRetrying() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            let token = mock.issueToken(expired: true)
            mock.server.revoke(refreshToken: try #require(token.refreshToken))
            let hint = "Run `stratus login dropbox` to sign in again."
            let provider = CredentialProvider(client: mock.client(signInHint: hint), store: InMemoryTokenStore(token))
            let error = await #expect(throws: ServiceError.self) { try await provider.authorizationHeader() }
            #expect(error?.code == .reauthenticationRequired)
            #expect(error?.providerError == "invalid_grant")
            #expect(error?.message.contains(hint) == true)
            #expect(error?.description.contains(token.refreshToken ?? "-") == false)
            #expect(mock.tokenRequests == 1, "invalid_grant is not retried")

            // Asking again does not send the dead refresh token again.
            let again = await #expect(throws: ServiceError.self) { try await provider.perform(mock.protectedRequest) }
            #expect(again?.code == .reauthenticationRequired)
            #expect(mock.tokenRequests == 1)
            #expect(mock.seenTokens.all.isEmpty)

            // A new sign-in brings it back to life.
            let fresh = mock.issueToken()
            try await provider.save(fresh)
            #expect(try await provider.authorizationHeader() == fresh.authorizationHeaderValue)
        }
    }

    @Test func defaultHintSaysHowToSignInAgain() async throws {
        try await MockHarness.with(.init(flavor: .google)) { mock in
            let token = mock.issueToken(expired: true)
            mock.server.revoke(refreshToken: try #require(token.refreshToken))
            let provider = CredentialProvider(client: mock.client(), store: InMemoryTokenStore(token))
            let error = await #expect(throws: ServiceError.self) { try await provider.token() }
            #expect(error?.code == .reauthenticationRequired)
            #expect(error?.message.contains("Sign in to Google again") == true)
        }
    }

    @Test func anEmptyStoreMeansSignInFirst() async throws {
        try await MockHarness.with(.init(flavor: .dropbox)) { mock in
            let provider = CredentialProvider(client: mock.client(), store: InMemoryTokenStore())
            let error = await #expect(throws: ServiceError.self) { try await provider.authorizationHeader() }
            #expect(error?.code == .reauthenticationRequired)
            #expect(mock.tokenRequests == 0)
        }
    }

    @Test func aTokenFileOthersCanReadIsRefusedBeforeAnyRequest() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            try await MockHarness.with(.init(flavor: .dropbox)) { mock in
                let url = folder.appendingPathComponent("token.json")
                try await FileTokenStore(url: url).save(mock.issueToken(expired: true))
                try setPermissions(0o644, of: url)
                let provider = CredentialProvider(client: mock.client(), store: FileTokenStore(url: url))
                let error = await #expect(throws: ServiceError.self) {
                    try await provider.perform(mock.protectedRequest)
                }
                #expect(error?.code == .permissionDenied)
                #expect(error?.message.contains("chmod 600 \(url.path)") == true)
                #expect(mock.tokenRequests == 0)
                #expect(mock.seenTokens.all.isEmpty)
            }
        }
    }

    @Test func twoProcessesSharingATokenFileNeverLoseARotatedRefreshToken() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            try await MockHarness.with(.init(flavor: .google, rotatesRefreshTokens: true)) { mock in
                let url = folder.appendingPathComponent("token.json")
                let original = mock.issueToken()
                try await FileTokenStore(url: url).save(original)
                // Two "processes": each its own store, provider and cached token.
                let first = CredentialProvider(client: mock.client(), store: FileTokenStore(url: url))
                let second = CredentialProvider(client: mock.client(), store: FileTokenStore(url: url))
                #expect(try await first.authorizationHeader() == original.authorizationHeaderValue)
                #expect(try await second.authorizationHeader() == original.authorizationHeaderValue)

                // Both find their cached token refused at the same moment.
                mock.server.expireAllAccessTokens()
                async let one = first.perform(mock.protectedRequest)
                async let two = second.perform(mock.protectedRequest)
                let (a, b) = try await (one, two)
                #expect(a.status == 200)
                #expect(b.status == 200)
                #expect(mock.server.refreshCount == 1, "the second found the first's token under the lock")
                #expect(await first.refreshCount + second.refreshCount == 1)

                let stored = try #require(try await FileTokenStore(url: url).load())
                #expect(stored.refreshToken != original.refreshToken, "the rotated refresh token was saved")
                // The file's refresh token is the live one: it still refreshes.
                let renewed = try await mock.client().refresh(stored)
                #expect(mock.server.validate(accessToken: renewed.accessToken).isValid)
                // The retired one is dead, as rotation promises.
                await #expect(throws: ServiceError.self) { try await mock.client().refresh(original) }
            }
        }
    }

    @Test func twoProcessesRefreshingAheadOfExpiryRefreshOnce() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            try await MockHarness.with(.init(flavor: .dropbox, rotatesRefreshTokens: true)) { mock in
                let url = folder.appendingPathComponent("token.json")
                try await FileTokenStore(url: url).save(mock.issueToken(expired: true))
                let providers = (0..<4).map { _ in
                    CredentialProvider(client: mock.client(), store: FileTokenStore(url: url))
                }
                let headers = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<40 {
                        let provider = providers[index % providers.count]
                        group.addTask { try await provider.authorizationHeader() }
                    }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                #expect(headers.count == 1)
                #expect(mock.server.refreshCount == 1)
                let stored = try #require(try await FileTokenStore(url: url).load())
                #expect(headers.first == stored.authorizationHeaderValue)
                _ = try await mock.client().refresh(stored)
            }
        }
    }
}
