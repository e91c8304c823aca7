import Foundation
import Hummingbird
import MockOAuth
import MockSupport
import NIOSSL

/// A provider's mock built over its storage folder, with its authorization server: run it in
/// this process with ``withRunning(tls:host:front:_:)``, or serve it until a signal with
/// ``serve(tls:host:port:onStart:)``.
public struct MockInstance<Provider: MockProvider>: Sendable {
    /// The description it was built from.
    public let provider: Provider
    /// The mock server.
    public let server: Provider.Server
    /// The authorization server whose tokens the mock accepts, on the same base URL.
    public let authorization: MockAuthorizationServer
    /// Where the mock keeps its blobs.
    public let storage: URL

    /// Creates an instance from its parts (see ``MockProvider/build(storage:settings:)``).
    /// - Parameters:
    ///   - provider: The description.
    ///   - server: The mock server.
    ///   - authorization: Its authorization server.
    ///   - storage: Its storage folder.
    public init(
        provider: Provider, server: Provider.Server, authorization: MockAuthorizationServer, storage: URL
    ) {
        self.provider = provider
        self.server = server
        self.authorization = authorization
        self.storage = storage
    }

    /// What a client needs to reach the mock once it listens.
    /// - Parameters:
    ///   - baseURL: The main host's base URL.
    ///   - contentURL: The second host's, if the mock has one.
    /// - Returns: The endpoints.
    public func endpoints(baseURL: URL, contentURL: URL?) -> MockEndpoints {
        let configuration = authorization.configuration
        return MockEndpoints(
            baseURL: baseURL, apiURL: provider.apiURL(of: server, baseURL: baseURL), contentURL: contentURL,
            tokenURL: baseURL.appending(path: authorization.paths.token), clientID: configuration.clientID,
            clientSecret: configuration.clientSecret, basicSignIn: provider.basicSignIn)
    }

    /// Runs the mock (both hosts, when it has two) on free ports while `body` runs, then stops it.
    /// - Parameters:
    ///   - tls: A TLS configuration for HTTPS, or `nil` for plain HTTP.
    ///   - host: The address to listen on; loopback by default.
    ///   - front: Adds routes or middleware ahead of the mock's (a proxy that rewrites answers).
    ///   - body: The work to do while the mock runs.
    /// - Returns: What `body` returned.
    public func withRunning<Result: Sendable>(
        tls: TLSConfiguration? = nil,
        host: String = "127.0.0.1",
        front: (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: @Sendable (MockEndpoints) async throws -> Result
    ) async throws -> Result {
        let router = Router()
        front(router)
        server.addRoutes(to: router)
        let contentHost = server.contentHost
        return try await MockServer.withRunning(router, tls: tls, host: host) { baseURL in
            guard let contentHost else { return try await body(endpoints(baseURL: baseURL, contentURL: nil)) }
            // The second host is told where it listens before `body` can ask for a URL on it.
            let contentRouter = Router()
            contentHost.addRoutes(contentRouter)
            return try await MockServer.withRunning(contentRouter, tls: tls, host: host) { contentURL in
                contentHost.started(contentURL)
                return try await body(endpoints(baseURL: baseURL, contentURL: contentURL))
            }
        }
    }

    /// Serves the mock until SIGINT or SIGTERM arrives or the calling task is cancelled; a
    /// second host listens first on a free port, so `onStart` can name it.
    /// - Parameters:
    ///   - tls: A TLS configuration for HTTPS, or `nil` for plain HTTP.
    ///   - host: The address to listen on.
    ///   - port: The main host's port; 0 picks a free one.
    ///   - onStart: Called once with the endpoints when the main host listens.
    /// - Throws: An error from starting or running a server, such as a port in use.
    public func serve(
        tls: TLSConfiguration?, host: String, port: Int, onStart: @escaping @Sendable (MockEndpoints) async -> Void
    ) async throws {
        var contentServer: Task<Void, any Error>?
        var contentURL: URL?
        if let contentHost = server.contentHost {
            let (started, announce) = AsyncStream<URL>.makeStream()
            contentServer = Task {
                defer { announce.finish() }
                let contentRouter = Router()
                contentHost.addRoutes(contentRouter)
                try await MockServer.run(contentRouter, tls: tls, host: host, port: 0) { url in announce.yield(url) }
            }
            var iterator = started.makeAsyncIterator()
            guard let url = await iterator.next() else {
                try await contentServer?.value
                throw MockServerError.didNotStart
            }
            contentHost.started(url)
            contentURL = url
        }
        defer { contentServer?.cancel() }
        let router = Router()
        server.addRoutes(to: router)
        let content = contentURL
        try await MockServer.run(router, tls: tls, host: host, port: port) { baseURL in
            await onStart(endpoints(baseURL: baseURL, contentURL: content))
        }
    }
}
