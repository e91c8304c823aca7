import Foundation
import Stratus
import Testing

@Suite("ServiceRegistry")
struct ServiceRegistryTests {
    let registry = ServiceRegistry(backends: [FolderBackend.self, DropboxLikeBackend.self, BrokenBackend.self])

    @Test("type names are listed sorted")
    func typeNames() {
        #expect(registry.typeNames == ["broken", "dropbox", "folder"])
        #expect(ServiceRegistry().typeNames == [])
    }

    @Test("a configured remote becomes a service built with its options")
    func makesService() throws {
        let configuration = StratusConfiguration(remotes: [
            "saves": .init(type: "folder", options: ["root": "/saves", "read_only": "yes"])
        ])
        let service = try registry.makeService(named: "saves", in: configuration)
        let recording = try #require(service as? RecordingService)
        #expect(
            recording.options
                == RemoteOptions(
                    remoteName: "saves", typeName: "folder", values: ["root": "/saves", "read_only": "yes"]))
    }

    @Test("type names match without regard to case; the backend gets its own spelling")
    func caseInsensitiveType() throws {
        let service = try registry.makeService(
            options: RemoteOptions(remoteName: "s", typeName: "FOLDER", values: ["root": "/r"]))
        #expect((service as? RecordingService)?.options.typeName == "folder")
    }

    @Test("an unknown type names the valid choices")
    func unknownType() throws {
        let configuration = StratusConfiguration(remotes: ["cloud": .init(type: "dropbx", options: ["app_key": "k"])])
        let error = try #require(throws: ServiceError.self) {
            try ServiceRegistry(backends: [DropboxLikeBackend.self, FolderBackend.self]).makeService(
                named: "cloud", in: configuration)
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message == "Remote 'cloud' has type 'dropbx'; known types: dropbox, folder.")
    }

    @Test("with no backends registered, the error says how to register one")
    func noBackends() throws {
        let error = try #require(throws: ServiceError.self) {
            try ServiceRegistry().makeService(options: RemoteOptions(remoteName: "a", typeName: "local", values: [:]))
        }
        #expect(error.message.contains("no backend types are registered"))
        #expect(error.message.contains("register"))
    }

    @Test("every missing required option is named with its environment variable, before the backend runs")
    func missingRequired() throws {
        let options = RemoteOptions(remoteName: "cloud", typeName: "dropbox", values: ["token_store": ""])
        let error = try #require(throws: ServiceError.self) { try registry.makeService(options: options) }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("'app_key' (environment variable STRATUS_REMOTE_CLOUD_APP_KEY)"))
        #expect(error.message.contains("'token_store' (environment variable STRATUS_REMOTE_CLOUD_TOKEN_STORE)"))
        #expect(!error.message.contains("base_url"))

        let trapped = try #require(throws: ServiceError.self) {
            try ServiceRegistry(backends: [TrapBackend.self]).makeService(
                options: RemoteOptions(remoteName: "t", typeName: "trap", values: [:]))
        }
        #expect(trapped.message.contains("Missing required option 'needed'"))
    }

    @Test("unknown option keys are named with the valid option names; x- keys pass through")
    func unknownOptions() throws {
        let options = RemoteOptions(
            remoteName: "saves", typeName: "folder",
            values: ["root": "/r", "rot": "/typo", "readonly": "1", "x-color": "blue"])
        let error = try #require(throws: ServiceError.self) { try registry.makeService(options: options) }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("Unknown options 'readonly', 'rot'"))
        #expect(error.message.contains("the valid options are client_secret, read_only, root, token_lifetime"))

        let extended = RemoteOptions(
            remoteName: "saves", typeName: "folder", values: ["root": "/r", "x-color": "blue", "X_SIZE": "3"])
        let service = try registry.makeService(options: extended)
        #expect((service as? RecordingService)?.options.values == ["root": "/r", "x-color": "blue", "X_SIZE": "3"])
    }

    @Test("unknown and missing options are reported together")
    func problemsTogether() throws {
        let options = RemoteOptions(
            remoteName: "cloud", typeName: "dropbox", values: ["app_kee": "k", "token_store": "/t"])
        let error = try #require(throws: ServiceError.self) { try registry.makeService(options: options) }
        #expect(error.message.contains("Unknown option 'app_kee'"))
        #expect(error.message.contains("Missing required option 'app_key'"))
    }

    @Test("a key that differs from a declared option only in case or punctuation is that option")
    func canonicalKeys() throws {
        let options = RemoteOptions(remoteName: "saves", typeName: "folder", values: ["ROOT": "/r", "Read-Only": "no"])
        let checked = try registry.validatedOptions(options)
        #expect(checked.values == ["root": "/r", "read_only": "no"])
        let service = try registry.makeService(options: options)
        #expect((service as? RecordingService)?.options.values == ["root": "/r", "read_only": "no"])
    }

    @Test("an option set twice under near names is an error")
    func duplicateKeys() throws {
        let options = RemoteOptions(remoteName: "saves", typeName: "folder", values: ["root": "/a", "ROOT": "/b"])
        let error = try #require(throws: ServiceError.self) { try registry.validatedOptions(options) }
        #expect(error.message.contains("Option 'root' is set more than once"))
    }

    @Test("the backend's own errors reach the caller; other errors become invalidConfiguration")
    func backendErrors() throws {
        let bad = RemoteOptions(
            remoteName: "cloud", typeName: "dropbox",
            values: ["app_key": "k", "token_store": "/t", "base_url": "not a url"])
        let own = try #require(throws: ServiceError.self) { try registry.makeService(options: bad) }
        #expect(own.message.contains("'base_url'"))
        #expect(own.message.contains("a URL"))

        let wrapped = try #require(throws: ServiceError.self) {
            try registry.makeService(options: RemoteOptions(remoteName: "b", typeName: "broken", values: [:]))
        }
        #expect(wrapped.code == .invalidConfiguration)
        #expect(wrapped.message.contains("Remote 'b' (type broken) could not be set up"))
        #expect(wrapped.underlying is BrokenBackend.Failure)
    }

    @Test("registering a type name again, in any case, replaces the earlier backend")
    func replacement() throws {
        var registry = self.registry
        registry.register(ReplacementFolderBackend.self)
        #expect(registry.typeNames == ["broken", "dropbox", "Folder"].sorted())
        let service = try registry.makeService(
            options: RemoteOptions(remoteName: "s", typeName: "folder", values: ["path": "/p"]))
        #expect((service as? RecordingService)?.options.values == ["path": "/p"])
        #expect(
            self.registry.backend(forType: "folder").map { ObjectIdentifier($0) }
                == ObjectIdentifier(FolderBackend.self))
    }

    @Test("an unknown remote lists the configured remote names")
    func unknownRemote() throws {
        let configuration = StratusConfiguration(remotes: ["a": .init(type: "folder"), "b": .init(type: "folder")])
        let error = try #require(throws: ServiceError.self) { try registry.makeService(named: "c", in: configuration) }
        #expect(error.message.contains("configured remotes: a, b"))
    }

    @Test("a secret value never appears in any error, whatever goes wrong")
    func secretsNeverShown() throws {
        let secret = "s3cr3t-value"
        let cases: [(String, StratusConfiguration.Remote)] = [
            ("unknown type", .init(type: "foldr", options: ["root": "/r", "client_secret": secret])),
            (
                "unknown option",
                .init(type: "folder", options: ["root": "/r", "client_secret": secret, "colour": secret])
            ),
            ("missing option", .init(type: "folder", options: ["client_secret": secret])),
            (
                "invalid secret value",
                .init(type: "folder", options: ["root": "/r", "client_secret": secret, "token_lifetime": secret])
            ),
            (
                "duplicate secret",
                .init(type: "folder", options: ["root": "/r", "client_secret": secret, "Client-Secret": secret])
            ),
        ]
        for (label, remote) in cases {
            let configuration = StratusConfiguration(remotes: ["cloud": remote])
            let error = try #require(throws: ServiceError.self, "\(label)") {
                try registry.makeService(named: "cloud", in: configuration)
            }
            #expect(error.code == .invalidConfiguration, "\(label)")
            for text in [error.message, error.description, error.localizedDescription, String(reflecting: error)] {
                #expect(!text.contains(secret), "\(label): \(text)")
            }
        }
    }
}

/// A backend that must never be reached: the registry stops before it for missing options.
private enum TrapBackend: ServiceBackend {
    static let typeName = "trap"
    static let options = [BackendOption("needed", summary: "Required.", isRequired: true)]

    static func makeService(options: RemoteOptions) throws -> any Service {
        throw ServiceError(.unsupported, "The trap backend was called.")
    }
}
