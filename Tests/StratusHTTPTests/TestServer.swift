import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import HummingbirdTLS
import NIOCore
import NIOSSL
import ServiceLifecycle

/// A Hummingbird server on 127.0.0.1, port 0, running for the length of a closure.
enum TestServer {
    /// Runs `body` with the base URL of a server answering with `router`.
    static func with<Result: Sendable>(
        _ router: Router<BasicRequestContext>,
        tls: TLSConfiguration? = nil,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let server: HTTPServerBuilder = try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1()
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        // Stop with a graceful shutdown, not by cancelling the serving task: cancelling can drop
        // a connection NIO has accepted but not handed over yet, which traps in NIOAsyncWriter
        // (apple/swift-nio#3481).
        let services = ServiceGroup(services: [app], logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0,
                  let url = URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)") else {
                await services.triggerGracefulShutdown()
                throw TestServerError.noPort
            }
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body(url))
            } catch {
                result = .failure(error)
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return try result.get()
        }
    }

    /// Deterministic content: byte `i` is `i % 251`.
    static func content(_ count: Int, offset: Int = 0) -> Data {
        var data = Data(capacity: count + 251)
        let start = offset % 251
        data.append(contentsOf: pattern[start...])
        while data.count < count { data.append(contentsOf: pattern) }
        return data.prefix(count)
    }

    private static let pattern: [UInt8] = (0..<251).map { UInt8($0) }

    /// A response body of `count` deterministic bytes sent in 64 KiB pieces.
    static func streamedBody(_ count: Int, pause: Duration? = nil) -> ResponseBody {
        ResponseBody(contentLength: count) { writer in
            var sent = 0
            while sent < count {
                let piece = min(65_536, count - sent)
                try await writer.write(ByteBuffer(data: content(piece, offset: sent)))
                sent += piece
                if let pause { try await Task.sleep(for: pause) }
            }
            try await writer.finish(nil)
        }
    }
}

enum TestServerError: Error {
    case noPort
}

/// A folder of its own for one test, removed when the test ends.
struct TemporaryFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Names of everything in the folder.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
