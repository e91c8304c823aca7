import Foundation
import MockOAuth
import MockSupport
import StratusHTTP

/// A running mock and an HTTP client to reach it: what a test of a mock holds while it sends the
/// mock requests of its own.
///
/// ```swift
/// try await DriveMockProvider().withSession { session in
///     // session.client.execute(...) against session.baseURL, with session.token
/// }
/// ```
public struct MockSession<Provider: MockProvider>: Sendable {
    /// The running mock.
    public let mock: RunningMock<Provider>
    /// A client of the session's own, shut down when it ends.
    public let client: StratusHTTPClient

    /// The mock server.
    public var server: Provider.Server { mock.server }
    /// The mock's authorization server, on the same base URL.
    public var authorization: MockAuthorizationServer { mock.authorization }
    /// Where the mock answers.
    public var baseURL: URL { mock.baseURL }
    /// An access token the mock accepts.
    public var token: String { mock.accessToken }
}

extension MockProvider {
    /// Runs `body` with a client and a fresh mock of this description on loopback: in a
    /// temporary folder of its own, removed afterwards, or in `folder`, where it loads the state
    /// a mock before it saved and saves its own when `body` returns, unless `savesOnStop` is
    /// false (see ``withRunning(in:settings:savesOnStop:front:_:)``).
    /// - Parameters:
    ///   - storagePrefix: The start of the temporary folder's name; `stratus-<name>` by default.
    ///   - folder: A folder that outlives the mock, for a mock restarted on it; `nil` for a
    ///     temporary one.
    ///   - persistence: Whether the mock in `folder` saves its state; it does by default.
    ///   - savesOnStop: Whether the mock in `folder` saves its state when `body` returns.
    ///   - body: The work.
    /// - Returns: What `body` returned.
    public func withSession<Result: Sendable>(
        storagePrefix: String? = nil,
        in folder: URL? = nil,
        persistence: StatePersistence = .saved(),
        savesOnStop: Bool = true,
        _ body: @Sendable (MockSession<Self>) async throws -> Result
    ) async throws -> Result {
        try await StratusHTTPClient.withClient { client in
            let run: @Sendable (RunningMock<Self>) async throws -> Result = { mock in
                try await body(MockSession(mock: mock, client: client))
            }
            guard let folder else { return try await withRunning(storagePrefix: storagePrefix, run) }
            return try await withRunning(
                in: folder, settings: MockServerSettings(persistence: persistence), savesOnStop: savesOnStop, run)
        }
    }
}
