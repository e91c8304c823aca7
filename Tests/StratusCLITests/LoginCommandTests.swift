import Foundation
import StratusHTTP
import Testing

@Suite struct LoginCommandTests {
    @Test func loginThroughTheLoopbackRedirectSavesATokenTheRemoteThenUses() async throws {
        try await DropboxMock.withRunning { mock in
            try await CLISandbox.with { sandbox in
                let store = sandbox.path("tokens/box.json")
                try FileManager.default.createDirectory(
                    at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
                let client = mock.server.authorization.configuration
                let added = try await sandbox.run(
                    [
                        "remote", "add", "box", "--type", "dropbox", "--option", "app_key=\(client.clientID)",
                        "--option", "token_store=\(store.path)",
                    ] + mock.hostOptions,
                    environment: ["STRATUS_REMOTE_BOX_APP_SECRET": client.clientSecret ?? ""]
                )
                #expect(added.status == 0, "\(added.stderr)")
                #expect(added.stdout.contains("stratus login box"))

                // Before signing in, the remote says how to.
                let early = try await sandbox.stratus(
                    "ls", "box:", environment: ["STRATUS_REMOTE_BOX_APP_SECRET": client.clientSecret ?? ""])
                #expect(early.status == 4, "\(early.stderr)")
                #expect(early.stderr.contains("stratus login box"))

                let login = try sandbox.start(
                    ["login", "box", "--timeout", "60"],
                    environment: ["STRATUS_REMOTE_BOX_APP_SECRET": client.clientSecret ?? ""])
                defer { login.terminate() }
                #expect(try await login.waitFor { _, stderr in stderr.contains("/oauth2/authorize?") })
                let line = try #require(login.stderr.split(separator: "\n").first { $0.contains("/oauth2/authorize?") })
                let url = try #require(URL(string: line.trimmingCharacters(in: .whitespaces)))

                // Play the browser: the mock's authorize page redirects to the CLI's loopback receiver.
                let http = try StratusHTTPClient()
                do {
                    let authorize = try await http.execute(StratusHTTPRequest(url: url))
                    #expect(authorize.status == 302)
                    let location = try #require(authorize.headers["Location"].flatMap(URL.init(string:)))
                    #expect(location.host == "127.0.0.1")
                    let landing = try await http.execute(StratusHTTPRequest(url: location))
                    #expect(landing.status == 200)
                } catch {
                    await http.shutdown()
                    throw error
                }
                await http.shutdown()

                let result = try await login.finish()
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("Signed in"))
                let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
                #expect(mode == 0o600)
                #expect(mock.server.authorization.codeExchangeCount == 1)

                let listed = try await sandbox.stratus(
                    "ls", "box:", "--json", environment: ["STRATUS_REMOTE_BOX_APP_SECRET": client.clientSecret ?? ""])
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(try listed.json()["files"] as? [Any] != nil)

                let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any]
                let accessToken = try #require(saved?["access_token"] as? String)
                #expect(mock.server.authorization.validate(accessToken: accessToken).isValid)

                let logout = try await sandbox.stratus(
                    "logout", "box", environment: ["STRATUS_REMOTE_BOX_APP_SECRET": client.clientSecret ?? ""])
                #expect(logout.status == 0, "\(logout.stderr)")
                let leftover = (try? String(contentsOf: store, encoding: .utf8)) ?? ""
                #expect(!leftover.contains("access"), "the token store holds no token after logout")
                #expect(!mock.server.authorization.validate(accessToken: accessToken).isValid, "the grant is revoked")
                let after = try await sandbox.stratus(
                    "ls", "box:", environment: ["STRATUS_REMOTE_BOX_APP_SECRET": client.clientSecret ?? ""])
                #expect(after.status == 4, "\(after.stderr)")
                #expect(after.stderr.contains("stratus login box"))
            }
        }
    }

    @Test func aLocalRemoteDoesNotSignIn() async throws {
        try await CLISandbox.with { sandbox in
            _ = try await sandbox.stratus(
                "remote", "add", "s", "--type", "local", "--option", "root=\(sandbox.path("cloud").path)")
            let result = try await sandbox.stratus("login", "s")
            #expect(result.status == 1)
            #expect(result.stderr.contains("does not sign in"))
        }
    }
}
