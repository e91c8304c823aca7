import Foundation
import Stratus
import Testing

@Suite("RemoteOptions")
struct RemoteOptionsTests {
    let options = RemoteOptions(
        remoteName: "cloud",
        typeName: "dropbox",
        values: [
            "root": "/saves", "empty": "", "size": " 42 ", "flag": "Yes", "off": "0",
            "base_url": "https://api.example.com",
            "bad_number": "forty", "bad_flag": "maybe", "bad_url": "example.com",
            "client_secret": "s3cr3t-value", "token_lifetime": "s3cr3t-value",
        ]
    )

    @Test("typed accessors read valid values and nil for missing ones")
    func typedValues() throws {
        #expect(options.string("root") == "/saves")
        #expect(options.string("missing") == nil)
        #expect(try options.requiredString("root") == "/saves")
        #expect(try options.integer("size") == 42)
        #expect(try options.integer("missing") == nil)
        #expect(try options.boolean("flag") == true)
        #expect(try options.boolean("off") == false)
        #expect(try options.boolean("missing") == nil)
        #expect(try options.url("base_url") == URL(string: "https://api.example.com"))
        #expect(try options.url("missing") == nil)
    }

    @Test("a missing or empty required option names the remote, the option and its environment variable")
    func requiredMissing() throws {
        for name in ["missing_option", "empty"] {
            let error = try #require(throws: ServiceError.self) { try options.requiredString(name) }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains("Remote 'cloud'"))
            #expect(error.message.contains("'\(name)'"))
            #expect(error.message.contains(RemoteOptions.environmentName(remote: "cloud", option: name)))
        }
    }

    @Test("a bad value is quoted and the expected form named")
    func badValues() throws {
        let number = try #require(throws: ServiceError.self) { try options.integer("bad_number") }
        #expect(number.message.contains("\"forty\""))
        #expect(number.message.contains("a whole number"))
        let flag = try #require(throws: ServiceError.self) { try options.boolean("bad_flag") }
        #expect(flag.message.contains("true or false"))
        let url = try #require(throws: ServiceError.self) { try options.url("bad_url") }
        #expect(url.message.contains("a URL"))
    }

    @Test("plain http is refused except for loopback hosts or with allow_insecure_http")
    func plainHTTPOnlyOnLoopback() throws {
        func options(_ url: String, allow: String? = nil) -> RemoteOptions {
            var values = ["api_url": url]
            if let allow { values[RemoteOptions.allowInsecureHTTPOption] = allow }
            return RemoteOptions(remoteName: "cloud", typeName: "dropbox", values: values)
        }
        for url in ["http://api.example.com", "http://10.0.0.5:8080", "http://127.example.com", "ftp://example.com/x"] {
            let error = try #require(throws: ServiceError.self, "\(url)") { try options(url).url("api_url") }
            #expect(error.code == .invalidConfiguration)
        }
        let plain = try #require(throws: ServiceError.self) { try options("http://api.example.com").url("api_url") }
        #expect(plain.message.contains("allow_insecure_http"))
        for url in [
            "https://api.example.com", "http://127.0.0.1:8080", "http://localhost:9", "http://[::1]:80",
            "http://127.1.2.3",
        ] {
            #expect(try options(url).url("api_url") == URL(string: url), "\(url)")
        }
        #expect(
            try options("http://10.0.0.5:8080", allow: "true").url("api_url") == URL(string: "http://10.0.0.5:8080"))
        #expect(throws: ServiceError.self) { try options("http://10.0.0.5:8080", allow: "false").url("api_url") }
    }

    @Test("a bad value of a secret option is never quoted")
    func badSecretValues() throws {
        let number = try #require(throws: ServiceError.self) { try options.integer("token_lifetime") }
        #expect(number.message.contains("'token_lifetime'"))
        #expect(number.message.contains("a whole number"))
        #expect(!number.description.contains("s3cr3t"))
        let url = try #require(throws: ServiceError.self) { try options.url("client_secret") }
        #expect(!url.description.contains("s3cr3t"))
    }

    @Test("descriptions, debug descriptions and dumps show values but never secret ones")
    func descriptionsHideSecrets() {
        var dumped = ""
        dump(options, to: &dumped)
        for text in [options.description, String(reflecting: options), "\(options)", dumped] {
            #expect(!text.contains("s3cr3t"), "\(text)")
            #expect(text.contains("/saves"), "\(text)")
            #expect(text.contains("client_secret"), "\(text)")
        }
    }

    @Test("environment names are upper-cased with every other character turned into _")
    func environmentNames() {
        #expect(RemoteOptions.environmentName(remote: "saves", option: "root") == "STRATUS_REMOTE_SAVES_ROOT")
        #expect(
            RemoteOptions.environmentName(remote: "game-saves.v2", option: "app key")
                == "STRATUS_REMOTE_GAME_SAVES_V2_APP_KEY")
        #expect(RemoteOptions.environmentName(remote: "caf\u{E9}", option: "x") == "STRATUS_REMOTE_CAF__X")
    }

    @Test("option names mentioning a secret, token, password or key are secret")
    func secretNames() {
        for name in ["client_secret", "refresh_token", "token_store", "Password", "app_key", "API-KEY"] {
            #expect(RemoteOptions.isSecret(name), "\(name)")
        }
        for name in ["root", "base_url", "chunk_size", "region"] {
            #expect(!RemoteOptions.isSecret(name), "\(name)")
        }
    }
}
