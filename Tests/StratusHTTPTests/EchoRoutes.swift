import Foundation
import Hummingbird
import NIOCore
import StratusDigest

/// Routes most tests share.
enum EchoRoutes {
    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/hello") { _, _ in "hello" }
        router.get("/bytes/{count}") { _, context -> Response in
            let count = try context.parameters.require("count", as: Int.self)
            return Response(status: .ok, body: TestServer.streamedBody(count))
        }
        router.get("/slow/{count}") { _, context -> Response in
            let count = try context.parameters.require("count", as: Int.self)
            return Response(status: .ok, body: TestServer.streamedBody(count, pause: .milliseconds(20)))
        }
        router.get("/stall") { _, _ -> Response in
            Response(
                status: .ok,
                body: ResponseBody(contentLength: 1_000_000) { writer in
                    try await writer.write(ByteBuffer(data: TestServer.content(1000)))
                    try await Task.sleep(for: .seconds(2))
                    try await writer.finish(nil)
                })
        }
        // Holds the answer for a second before sending any of it, as a long poll does.
        router.get("/held") { _, _ -> String in
            try await Task.sleep(for: .seconds(1))
            return "done"
        }
        router.get("/missing") { _, _ -> Response in
            Response(status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "no such thing")))
        }
        router.get("/headers") { request, _ -> String in
            request.headers.map { "\($0.name.canonicalName.lowercased()): \($0.value)" }.sorted().joined(
                separator: "\n")
        }
        // Answers "<method> <byte count> <sha256>" of the request body it received.
        for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
            router.on("/echo-digest", method: method) { request, _ -> String in
                let digest = SHA256Digest()
                var count = 0
                for try await buffer in request.body {
                    buffer.withUnsafeReadableBytes { digest.update($0) }
                    count += buffer.readableBytes
                }
                let length = request.headers[.contentLength] ?? "none"
                return "\(request.method) \(count) \(digest.finalizeHex()) length=\(length)"
            }
        }
        router.head("/hello") { _, _ in Response(status: .ok, headers: [.contentLength: "5"]) }
        return router
    }
}
