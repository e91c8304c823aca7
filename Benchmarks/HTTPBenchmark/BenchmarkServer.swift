import BenchmarkSupport
import Foundation
import Hummingbird

/// The Hummingbird server every tool is measured against, on 127.0.0.1 and a free port, in the
/// benchmark's own process. Bodies come from buffers made once, so serving costs little.
///
/// - `GET /download/{bytes}`: `bytes` bytes of ``PatternContent``, the 1 MiB block sent again and again.
/// - `PUT /upload/{token}`: reads and counts the body, answers the count and records it.
/// - `GET /small/{token}`: a small body; counts the request.
enum BenchmarkServer {
    /// Runs `body` with the server's base URL, then stops the server.
    static func run<Result: Sendable>(
        counters: ServerCounters,
        smallBodyBytes: Int,
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        var configured = Application(
            router: router(counters: counters, smallBodyBytes: smallBodyBytes),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "stratus-http-benchmark"),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) }
        )
        configured.logger.logLevel = .critical
        let app = configured
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0,
                let url = URL(string: "http://127.0.0.1:\(port)")
            else {
                throw BenchmarkFailure("the loopback server did not start")
            }
            return try await body(url)
        }
    }

    private static func router(counters: ServerCounters, smallBodyBytes: Int) -> Router<BasicRequestContext> {
        let block = ByteBuffer(bytes: PatternContent.block)
        let small = ByteBuffer(bytes: PatternContent.block.prefix(smallBodyBytes))
        let router = Router()

        router.get("/download/{bytes}") { _, context -> Response in
            let count = try context.parameters.require("bytes", as: Int.self)
            let body = ResponseBody(contentLength: count) { writer in
                var remaining = count
                while remaining >= block.readableBytes {
                    try await writer.write(block)
                    remaining -= block.readableBytes
                }
                if remaining > 0 {
                    guard let tail = block.getSlice(at: block.readerIndex, length: remaining) else {
                        throw BenchmarkFailure("cannot cut \(remaining) bytes from the 1 MiB block")
                    }
                    try await writer.write(tail)
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }

        router.put("/upload/{token}") { request, context -> String in
            let token = try context.parameters.require("token")
            var count: Int64 = 0
            for try await buffer in request.body {
                count += Int64(buffer.readableBytes)
            }
            counters.recordUpload(token: token, bytes: count)
            return String(count)
        }

        router.get("/small/{token}") { _, context -> Response in
            let token = try context.parameters.require("token")
            counters.recordSmallRequest(token: token)
            return Response(status: .ok, body: ResponseBody(byteBuffer: small))
        }
        return router
    }
}
