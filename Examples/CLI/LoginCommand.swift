import ArgumentParser
import Foundation
import Stratus
import StratusHTTP
import StratusOAuth

/// `stratus login NAME`: an OAuth sign-in through a loopback redirect; the token is saved to
/// the remote's `token_store` (mode 0600).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a remote's account in a browser and save the token.",
        discussion: """
            Prints a URL to open in a browser. The provider sends the browser back to \
            http://127.0.0.1:PORT/callback, where this command waits; the token goes to the \
            remote's token_store file. Dropbox apps must register that redirect URI exactly, \
            so pass the port registered with --port.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote's name.") var name: String
    @Option(name: .long, help: "The loopback port for the redirect (0: any free port).") var port: Int = 0
    @Option(name: .long, help: "How many seconds to wait for the browser.") var timeout: Int = 300

    func run() async throws {
        let configuration = try global.effectiveConfiguration()
        guard configuration.remotes[name] != nil else {
            throw global.unknownRemote(name, in: configuration)
        }
        let profile = try global.explained(remote: name) { () -> Backends.SignInProfile? in
            let options = try Backends.registry.validatedOptions(try configuration.options(forRemote: name))
            return try Backends.signInProfile(for: options)
        }
        guard let profile else {
            let type = configuration.remotes[name]?.type ?? "?"
            throw CLIFailure(
                .usage, "Remote '\(name)' has type \(type), which does not sign in.",
                next: "Use it directly, such as `stratus ls \(name):`.")
        }
        let http: StratusHTTPClient
        do {
            http = try StratusHTTPClient()
        } catch {
            throw CLIFailure(.other, "The HTTP client could not start: \(error)")
        }
        let client = OAuthClient(
            provider: profile.provider, http: http, signInHint: "Run `stratus login \(name)` again.")
        let store = FileTokenStore(url: profile.tokenStore)
        do {
            try await global.explained(remote: name) {
                let token = try await client.signIn(scopes: profile.scopes, port: port, timeout: .seconds(timeout)) {
                    url in
                    Output.note(
                        "To sign in to \(profile.provider.name) for remote '\(name)', open this URL in a browser:")
                    Output.note("  \(url.absoluteString)")
                    Output.note("Waiting for the browser (up to \(timeout) s)...")
                }
                try await store.save(token)
            }
        } catch {
            await http.shutdown()
            throw error
        }
        await http.shutdown()
        if global.json {
            try Output.json(["remote": name, "token_store": profile.tokenStore.path])
        } else {
            Output.line("Signed in. Remote '\(name)' keeps its token in \(profile.tokenStore.path) (mode 0600).")
        }
    }
}

/// `stratus logout NAME`: revokes the remote's sign-in at the provider and deletes its token.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke a remote's sign-in and delete its saved token."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote's name.") var name: String

    func run() async throws {
        let configuration = try global.effectiveConfiguration()
        guard configuration.remotes[name] != nil else {
            throw global.unknownRemote(name, in: configuration)
        }
        let profile = try global.explained(remote: name) { () -> Backends.SignInProfile? in
            let options = try Backends.registry.validatedOptions(try configuration.options(forRemote: name))
            return try Backends.signInProfile(for: options)
        }
        guard let profile else {
            throw CLIFailure(.usage, "Remote '\(name)' does not sign in, so there is nothing to sign out of.")
        }
        let http: StratusHTTPClient
        do {
            http = try StratusHTTPClient()
        } catch {
            throw CLIFailure(.other, "The HTTP client could not start: \(error)")
        }
        let provider = CredentialProvider(
            client: OAuthClient(provider: profile.provider, http: http, signInHint: "Run `stratus login \(name)`."),
            store: FileTokenStore(url: profile.tokenStore)
        )
        do {
            try await global.explained(remote: name) { try await provider.signOut() }
        } catch {
            await http.shutdown()
            throw error
        }
        await http.shutdown()
        if global.json {
            try Output.json(["signed_out": name])
        } else {
            Output.line(
                "Signed out of remote '\(name)': the grant is revoked and \(profile.tokenStore.path) holds no token.")
        }
    }
}
