import Foundation
import Hummingbird
import MockOAuth
import MockSupport

/// A provider's mock (with its authorization server) running in this process on a loopback
/// port the OS picks, with storage in a temporary folder of its own: what a test of a mock, an
/// adapter or the CLI, or a fault-matrix cell, needs to reach it.
public struct RunningMock<Provider: MockProvider>: Sendable {
    /// The mock and its authorization server.
    public let instance: MockInstance<Provider>
    /// What a client needs to reach it.
    public let endpoints: MockEndpoints
    /// A token pair the authorization server issued.
    public let tokens: IssuedTokens

    /// The mock provider.
    public var server: Provider.Server { instance.server }
    /// The mock's authorization server, on the same base URL.
    public var authorization: MockAuthorizationServer { instance.authorization }
    /// Where the mock answers.
    public var baseURL: URL { endpoints.baseURL }
    /// An access token the authorization server issued.
    public var accessToken: String { tokens.accessToken }
    /// The mock's storage folder, removed when the run ends.
    public var storage: URL { instance.storage }
}

extension MockProvider {
    /// Runs `body` while a fresh mock of this description runs on loopback, and removes its
    /// storage afterwards.
    /// - Parameters:
    ///   - settings: The options every mock shares.
    ///   - storagePrefix: The start of the storage folder's name; `stratus-<name>` by default.
    ///   - front: Adds routes or middleware ahead of the mock's (a proxy that rewrites answers).
    ///   - body: The work.
    /// - Returns: What `body` returned.
    public func withRunning<Result: Sendable>(
        settings: MockServerSettings = MockServerSettings(),
        storagePrefix: String? = nil,
        front: (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: @Sendable (RunningMock<Self>) async throws -> Result
    ) async throws -> Result {
        let storage = FileManager.default.temporaryDirectory.appending(
            path: "\(storagePrefix ?? "stratus-\(name)")-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: storage) }
        return try await withRunning(in: storage, settings: settings, savesOnStop: false, front: front, body)
    }

    /// Runs `body` while a mock of this description runs on loopback over `folder`, which outlives
    /// it: a mock started later on the same folder is this one restarted.
    ///
    /// With ``MockServerSettings/persistence`` saving, the mock loads the state a mock before it
    /// saved in the folder and, unless `savesOnStop` is false, saves its own when `body` returns,
    /// as `stratus-mock` does when it stops; false stands for a killed mock, which saves nothing
    /// more.
    /// - Parameters:
    ///   - folder: The storage folder, which the mock creates when missing; it is kept afterwards.
    ///   - settings: The options every mock shares; saving its state by default.
    ///   - savesOnStop: Whether the mock saves its state when `body` returns.
    ///   - front: Adds routes or middleware ahead of the mock's (a proxy that rewrites answers).
    ///   - body: The work.
    /// - Returns: What `body` returned.
    /// - Throws: ``PersistentStateError`` when the folder holds a state the mock cannot use, or
    ///   what `body` or saving threw.
    public func withRunning<Result: Sendable>(
        in folder: URL,
        settings: MockServerSettings = MockServerSettings(persistence: .saved()),
        savesOnStop: Bool = true,
        front: (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: @Sendable (RunningMock<Self>) async throws -> Result
    ) async throws -> Result {
        let instance = try build(storage: folder, settings: settings)
        let tokens = instance.authorization.issueTokens()
        let result = try await instance.withRunning(front: front) { endpoints in
            try await body(RunningMock(instance: instance, endpoints: endpoints, tokens: tokens))
        }
        if savesOnStop { try await instance.server.saveState() }
        return result
    }
}
