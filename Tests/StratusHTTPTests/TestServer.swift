import Foundation
import Hummingbird
import HummingbirdTLS
import MockSupport
import NIOCore
import NIOSSL

/// A Hummingbird server on 127.0.0.1, port 0, running for the length of a closure.
enum TestServer {
    /// Runs `body` with the base URL of a server answering with `router`. The server never
    /// sends `100 Continue`, so a request that waits for it shows what the client does when a
    /// server answers before the body (the `Expect` tests rely on it).
    static func with<Result: Sendable>(
        _ router: Router<BasicRequestContext>,
        tls: TLSConfiguration? = nil,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        try await MockServer.withRunning(router, tls: tls, sendsContinue: false, body)
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
