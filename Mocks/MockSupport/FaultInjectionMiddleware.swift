import HTTPTypes
import Hummingbird
import NIOCore

/// Hummingbird middleware that applies a ``FaultInjector``'s rules to every request but the
/// control routes (`/__stratus/...`).
///
/// Status faults answer with the provider's own error body; delays and bandwidth limits slow
/// the normal answer; connection faults mark the answer for the ``MockServer``'s connection
/// handler, which drops or corrupts it on the wire. Add it to the router before the routes:
/// ```swift
/// router.add(middleware: FaultInjectionMiddleware(injector: faults))
/// ```
public struct FaultInjectionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The rules.
    public let injector: FaultInjector

    /// Creates the middleware.
    /// - Parameter injector: The rules and the provider's shapes.
    public init(injector: FaultInjector) {
        self.injector = injector
    }

    /// Answers the request, with a fault if a rule injects one.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !request.uri.path.hasPrefix(FaultControlRoutes.prefix),
            let fault = injector.fault(
                method: request.method.rawValue, path: request.uri.path,
                header: { name in HTTPField.Name(name).flatMap { request.headers[$0] } })
        else {
            return try await next(request, context)
        }
        switch fault {
        case .status(let status, let retryAfter):
            var response = injector.hooks.errorResponse(status, retryAfter)
            if let retryAfter, response.headers[.retryAfter] == nil {
                response.headers[.retryAfter] = String(retryAfter)
            }
            // An answer to HEAD has no body, whatever the provider's error shape is.
            return request.method == .head ? response.createHeadResponse() : response
        case .delay(let milliseconds):
            let response = try await next(request, context)
            try await Task.sleep(for: .milliseconds(milliseconds))
            return response
        case .holdRequest(let milliseconds):
            try await Task.sleep(for: .milliseconds(milliseconds))
            return try await next(request, context)
        case .bandwidth(let rate):
            var response = try await next(request, context)
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                try await body.write(ThrottledWriter(base: writer, bytesPerSecond: rate))
            }
            return response
        case .dropBeforeResponse:
            // The route does its work; only the answer is lost.
            _ = try? await next(request, context)
            return Self.marked("drop")
        case .dropAfterResponseBytes(let count):
            return Self.marked("drop-after=\(count)", try await next(request, context))
        case .dropAfterRequestBytes(let count):
            var received = 0
            for try await buffer in request.body {
                received += buffer.readableBytes
                if received >= count { break }
            }
            return Self.marked("drop")
        case .corruptBody:
            return Self.marked("corrupt", try await next(request, context))
        case .expireTokens:
            injector.hooks.expireTokens()
            return try await next(request, context)
        }
    }

    private static func marked(_ instruction: String, _ response: Response = Response(status: .ok)) -> Response {
        var response = response
        response.headers[ConnectionFaultHandler.marker] = instruction
        return response
    }
}

/// A body writer that holds writes back to a byte rate, in pieces of at most 16 KiB.
private struct ThrottledWriter: ResponseBodyWriter {
    var base: any ResponseBodyWriter
    let bytesPerSecond: Int

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        let piece = max(1, min(16 * 1024, bytesPerSecond))
        while let slice = buffer.readSlice(length: min(piece, buffer.readableBytes)), slice.readableBytes > 0 {
            try await Task.sleep(for: .seconds(Double(slice.readableBytes) / Double(bytesPerSecond)))
            try await base.write(slice)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await base.finish(trailingHeaders)
    }
}
