import Foundation
import MockOneDrive
import MockProviders
import StratusHTTP
import Testing

/// `stratus` against a mock Graph running in this process: a `onedrive` remote's files, versions
/// and sign-in.
@Suite struct OneDriveCommandTests {
    /// Runs `body` with a running mock and its Graph base URL.
    static func withMock(_ body: @Sendable @escaping (MockOneDriveServer, URL) async throws -> Void) async throws {
        try await OneDriveMockProvider().withRunning(storagePrefix: "stratus-cli-onedrive") { mock in
            try await body(mock.server, mock.baseURL)
        }
    }

    @Test func filesRoundTripThroughTheMock() async throws {
        try await Self.withMock { server, graphURL in
            try await CLISandbox.with { base in
                var sandbox = base
                sandbox.environment = [
                    "STRATUS_REMOTE_OD_ACCESS_TOKEN": server.authorization.issueTokens().accessToken
                ]
                let added = try await sandbox.run([
                    "remote", "add", "od", "--type", "onedrive", "--option",
                    "api_url=\(graphURL.appending(path: "v1.0").absoluteString)",
                ])
                #expect(added.status == 0, "\(added.stderr)")
                let first = try sandbox.write("level 1", to: "first.txt")
                let second = try sandbox.write("level 2, more coins", to: "second.txt")
                let put = try await sandbox.stratus("put", first.path, "od:saves/slot.txt", "--if-absent", "--json")
                #expect(put.status == 0, "\(put.stderr)")
                let v1 = try #require((try put.json()["file"] as? [String: Any])?["version"] as? String)
                #expect(
                    try await sandbox.stratus("put", second.path, "od:saves/slot.txt", "--if-version", v1).status == 0)

                let copy = sandbox.path("copy.txt")
                #expect(try await sandbox.stratus("get", "od:saves/slot.txt", copy.path).status == 0)
                #expect(try String(contentsOf: copy, encoding: .utf8) == "level 2, more coins")
                let stat = try #require(
                    try await sandbox.stratus("stat", "od:saves/slot.txt", "--json").json()["file"] as? [String: Any])
                #expect((stat["content_hash"] as? String)?.hasPrefix("quickXorHash") == true)

                let restored = try await sandbox.stratus("restore", "od:saves/slot.txt", v1)
                #expect(restored.status == 0, "\(restored.stderr)")
                #expect(try await sandbox.stratus("get", "od:saves/slot.txt", copy.path).status == 0)
                #expect(try String(contentsOf: copy, encoding: .utf8) == "level 1")
                let stale = try await sandbox.stratus("put", first.path, "od:saves/slot.txt", "--if-version", v1)
                #expect(stale.status == 3, "\(stale.stderr)")
                #expect(try await sandbox.stratus("rm", "od:saves/slot.txt").status == 0)
                #expect(try await sandbox.stratus("stat", "od:saves/slot.txt").status == 2)
            }
        }
    }

    @Test func loginThroughTheMicrosoftEndpointsSavesATokenTheRemoteThenUses() async throws {
        try await Self.withMock { server, graphURL in
            try await CLISandbox.with { sandbox in
                let store = sandbox.path("tokens/od.json")
                try FileManager.default.createDirectory(
                    at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
                let client = server.authorization.configuration
                let secret = ["STRATUS_REMOTE_OD_CLIENT_SECRET": client.clientSecret ?? ""]
                let added = try await sandbox.run(
                    [
                        "remote", "add", "od", "--type", "onedrive", "--option", "client_id=\(client.clientID)",
                        "--option", "token_store=\(store.path)",
                        "--option", "api_url=\(graphURL.appending(path: "v1.0").absoluteString)",
                        "--option", "login_url=\(graphURL.absoluteString)",
                    ], environment: secret)
                #expect(added.status == 0, "\(added.stderr)")

                let login = try sandbox.start(["login", "od", "--timeout", "60"], environment: secret)
                defer { login.terminate() }
                #expect(try await login.waitFor { _, stderr in stderr.contains("/oauth2/v2.0/authorize?") })
                let line = try #require(
                    login.stderr.split(separator: "\n").first { $0.contains("/oauth2/v2.0/authorize?") })
                let url = try #require(URL(string: line.trimmingCharacters(in: .whitespaces)))
                #expect(url.path == "/common/oauth2/v2.0/authorize")
                let scope = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                    .first { $0.name == "scope" }?.value
                #expect(scope == "offline_access Files.ReadWrite.AppFolder")

                let http = try StratusHTTPClient()
                do {
                    let authorize = try await http.execute(StratusHTTPRequest(url: url))
                    #expect(authorize.status == 302)
                    let location = try #require(authorize.headers["Location"].flatMap(URL.init(string:)))
                    let landing = try await http.execute(StratusHTTPRequest(url: location))
                    #expect(landing.status == 200)
                } catch {
                    await http.shutdown()
                    throw error
                }
                await http.shutdown()

                let result = try await login.finish()
                #expect(result.status == 0, "\(result.stderr)")
                let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any]
                #expect(saved?["refresh_token"] as? String != nil)
                let listed = try await sandbox.stratus("ls", "od:", "--json", environment: secret)
                #expect(listed.status == 0, "\(listed.stderr)")
            }
        }
    }

    @Test func theSaveSyncDemoRunsAgainstOneDriveByChangingTheType() async throws {
        try await Self.withMock { server, graphURL in
            try await CLISandbox.with { sandbox in
                let result = try await sandbox.saveSync(
                    [
                        "demo", "--type", "onedrive", "--option",
                        "api_url=\(graphURL.appending(path: "v1.0").absoluteString)",
                    ],
                    environment: [
                        "STRATUS_REMOTE_SAVE_SYNC_ACCESS_TOKEN": server.authorization.issueTokens().accessToken
                    ]
                )
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("a 'onedrive' remote"))
                #expect(result.stdout.contains("conflict detected: yes"))
            }
        }
    }
}
