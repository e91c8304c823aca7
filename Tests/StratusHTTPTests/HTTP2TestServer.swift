import Foundation
import Hummingbird
import HummingbirdHTTP2
import Logging
import NIOSSL
import ServiceLifecycle

/// A Hummingbird server on 127.0.0.1, port 0, that speaks HTTP/2 to clients that offer it in
/// TLS's ALPN (and HTTP/1.1 to others), running for the length of a closure.
enum HTTP2TestServer {
    static func with<Result: Sendable>(
        _ router: Router<BasicRequestContext>,
        tls: TLSConfiguration,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "stratus.http2-test-server")
        logger.logLevel = .critical
        let (ports, announcer) = AsyncStream<Int?>.makeStream()
        let application = Application(
            router: router,
            server: try .http2Upgrade(tlsConfiguration: tls),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                announcer.yield(channel.localAddress?.port)
                announcer.finish()
            },
            logger: logger
        )
        let services = ServiceGroup(services: [application], logger: logger)
        // A task of its own, so the caller's cancellation reaches the server only as a graceful
        // shutdown (as `MockServer` does).
        let serving = Task {
            defer { announcer.finish() }
            try await services.run()
        }
        var iterator = ports.makeAsyncIterator()
        let outcome: Swift.Result<Result, any Error>
        if let port = await iterator.next() ?? nil, let url = URL(string: "https://127.0.0.1:\(port)") {
            do {
                outcome = .success(try await body(url))
            } catch {
                outcome = .failure(error)
            }
        } else {
            outcome = .failure(ServerDidNotStart())
        }
        await services.triggerGracefulShutdown()
        let stopped = await serving.result
        let result = try outcome.get()
        try stopped.get()
        return result
    }

    struct ServerDidNotStart: Error {}
}
