import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

/// Runs a mock server: a Hummingbird server answering with a router.
///
/// Tests use ``withRunning(_:tls:host:port:logger:sendsContinue:_:)``, which listens on a free port of the
/// loopback address for the length of a closure; the `stratus-mock` executable uses
/// ``run(_:tls:host:port:logger:sendsContinue:onStart:)``, which serves until SIGINT, SIGTERM or the
/// cancellation of its task.
///
/// ```swift
/// let router = Router()
/// authorizationServer.addRoutes(to: router)
/// try await MockServer.withRunning(router) { baseURL in
///     // talk to baseURL
/// }
/// ```
///
/// Both stop the server with a graceful shutdown: requests in progress finish, then the
/// listener closes. Neither cancels the serving task, since cancelling it can drop a connection
/// NIO has accepted but not handed over yet, which traps in `NIOAsyncWriter`
/// (apple/swift-nio#3481); the server runs in a task of its own, shielded from the caller's
/// cancellation, which is turned into a graceful shutdown instead.
public enum MockServer {
    /// Starts a server, runs `body` with its base URL, then shuts the server down gracefully
    /// and waits until it stopped.
    /// - Parameters:
    ///   - router: The routes to answer with.
    ///   - tls: A TLS configuration for HTTPS, or `nil` for plain HTTP.
    ///   - host: The address to listen on; loopback by default.
    ///   - port: The port to listen on; 0 (the default) picks a free one.
    ///   - logger: Where the server logs; by default only critical messages, to standard error.
    ///   - sendsContinue: Whether a request head with `Expect: 100-continue` gets an interim
    ///     `100 Continue` at once, as the providers' front ends send (the default); `false` makes
    ///     a server that answers before asking for the body, which clients then never send.
    ///   - body: The work to do while the server runs; it receives the base URL, such as
    ///     `http://127.0.0.1:49152`, without a trailing slash.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw; otherwise an error from starting or running the server
    ///   (such as a port in use), or ``MockServerError``.
    public static func withRunning<Result: Sendable>(
        _ router: Router<BasicRequestContext>,
        tls: TLSConfiguration? = nil,
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger? = nil,
        sendsContinue: Bool = true,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        let logger = logger ?? quietLogger
        let (announcements, announcer) = AsyncStream<Swift.Result<URL, MockServerError>>.makeStream()
        let application = try makeApplication(
            router, tls: tls, host: host, port: port, logger: logger, sendsContinue: sendsContinue
        ) { url in
            announcer.yield(url)
            announcer.finish()
        }
        let services = ServiceGroup(services: [application], logger: logger)
        // A task of its own, so the caller's cancellation never reaches the server as cancellation.
        let serving = Task {
            defer { announcer.finish() }
            try await services.run()
        }
        var iterator = announcements.makeAsyncIterator()
        let announcement = await iterator.next()
        let outcome: Swift.Result<Result, any Error>
        switch announcement {
        case .success(let url):
            do {
                outcome = .success(try await body(url))
            } catch {
                outcome = .failure(error)
            }
        case .failure(let error):
            outcome = .failure(error)
        case nil:
            outcome = .failure(Task.isCancelled ? CancellationError() : MockServerError.didNotStart)
        }
        await services.triggerGracefulShutdown()
        let stopped = await serving.result
        // The body's error says more than a server error that may have followed from it.
        let result = try outcome.get()
        try stopped.get()
        return result
    }

    /// Serves until SIGINT or SIGTERM arrives or the calling task is cancelled, each of which
    /// shuts the server down gracefully.
    /// - Parameters:
    ///   - router: The routes to answer with.
    ///   - tls: A TLS configuration for HTTPS, or `nil` for plain HTTP.
    ///   - host: The address to listen on; loopback by default.
    ///   - port: The port to listen on; 0 (the default) picks a free one.
    ///   - logger: Where the server logs; by default only critical messages, to standard error.
    ///   - sendsContinue: Whether a request head with `Expect: 100-continue` gets an interim
    ///     `100 Continue` at once, as the providers' front ends send (the default); `false` makes
    ///     a server that answers before asking for the body, which clients then never send.
    ///   - onStart: Called once with the base URL when the server listens, before it accepts
    ///     connections (they wait in the backlog), so it should return promptly.
    /// - Throws: An error from starting or running the server, such as a port in use.
    public static func run(
        _ router: Router<BasicRequestContext>,
        tls: TLSConfiguration? = nil,
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger? = nil,
        sendsContinue: Bool = true,
        onStart: @escaping @Sendable (URL) async -> Void
    ) async throws {
        let logger = logger ?? quietLogger
        let application = try makeApplication(
            router, tls: tls, host: host, port: port, logger: logger, sendsContinue: sendsContinue
        ) { announcement in
            switch announcement {
            case .success(let url): await onStart(url)
            case .failure(let error): logger.error("The mock server is running, but \(error)")
            }
        }
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: application)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        let serving = Task { try await services.run() }
        try await withTaskCancellationHandler {
            try await serving.value
        } onCancel: {
            Task { await services.triggerGracefulShutdown() }
        }
    }

    /// The logger used when none is given: critical messages only.
    private static var quietLogger: Logger {
        var logger = Logger(label: "stratus.mock-server")
        logger.logLevel = .critical
        return logger
    }

    private static func makeApplication(
        _ router: Router<BasicRequestContext>,
        tls: TLSConfiguration?,
        host: String,
        port: Int,
        logger: Logger,
        sendsContinue: Bool,
        onListening: @escaping @Sendable (Swift.Result<URL, MockServerError>) async -> Void
    ) throws -> some Service {
        // Every connection carries the handler that carries out connection faults and, unless
        // told otherwise, the one that answers `Expect: 100-continue`.
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: sendsContinue
                    ? [ContinueHandler(), ConnectionFaultHandler()] : [ConnectionFaultHandler()]
            )
        )
        let server: HTTPServerBuilder = try tls.map { try .tls(http1, tlsConfiguration: $0) } ?? http1
        let scheme = tls == nil ? "http" : "https"
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                await onListening(baseURL(scheme: scheme, host: host, port: channel.localAddress?.port))
            },
            logger: logger
        )
    }

    /// `scheme://host:port`, with an IPv6 host in brackets.
    private static func baseURL(scheme: String, host: String, port: Int?) -> Swift.Result<URL, MockServerError> {
        let address = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port, port > 0, let url = URL(string: "\(scheme)://\(address):\(port)") else {
            return .failure(.unusableAddress("\(address):\(port.map(String.init) ?? "?")"))
        }
        return .success(url)
    }
}
