import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Stratus
import StratusHTTP
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusS3

/// An S3 server in front of moto that answers `412 PreconditionFailed` to every request with
/// `If-Match` or `If-None-Match`, whatever it holds, and passes every other request to moto.
final class RefusingConditionsProxy: Sendable {
    private let refusals = Mutex(0)

    /// How many conditional requests the proxy refused.
    var refused: Int { refusals.withLock { $0 } }

    /// Runs the proxy in front of `upstream` for the length of `body`, which gets its URL.
    func run<Result: Sendable>(upstream: URL, _ body: @Sendable (URL) async throws -> Result) async throws -> Result {
        let client = try StratusHTTPClient()
        let router = Router()
        for method in [HTTPRequest.Method.get, .head, .put, .post, .delete] {
            router.on(RouterPath("/**"), method: method) { request, _ -> Response in
                if request.headers[.ifMatch] != nil || request.headers[.ifNoneMatch] != nil {
                    self.refusals.withLock { $0 += 1 }
                    let text =
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>PreconditionFailed</Code>"
                        + "<Message>At least one of the pre-conditions you specified did not hold</Message></Error>"
                    return Response(
                        status: .preconditionFailed, headers: [.contentType: "application/xml"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
                }
                return try await Self.forward(request, to: upstream, client: client)
            }
        }
        do {
            let result = try await MockServer.withRunning(router, body)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// Sends a request on to `upstream` and returns its answer.
    private static func forward(_ request: Request, to upstream: URL, client: StratusHTTPClient) async throws
        -> Response
    {
        let body = try await request.body.collect(upTo: 64 << 20)
        let skipped: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "expect"]
        var headers = StratusHTTPHeaders()
        for field in request.headers where !skipped.contains(field.name.canonicalName) {
            headers.add(field.name.rawName, field.value)
        }
        guard let url = URL(string: upstream.absoluteString + request.uri.description) else {
            return Response(status: .badRequest)
        }
        let method = StratusHTTPMethod(rawValue: request.method.rawValue)
        let answer = try await client.execute(
            StratusHTTPRequest(
                method: method, url: url, headers: headers,
                body: body.readableBytes == 0 ? .empty : .bytes(Data(body.readableBytesView))))
        var fields = HTTPFields()
        let hopByHop: Set<String> = ["transfer-encoding", "connection"]
        for (name, value) in answer.headers {
            guard let field = HTTPFields.Element.Name(name), !hopByHop.contains(field.canonicalName) else { continue }
            if field == .contentLength, method != .head { continue }
            fields.append(HTTPFields.Element(name: field, value: value))
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// `conditional_writes=detect` against a server that refuses every conditional request: the
/// detection must tell that from a server that honours conditions (issue 39).
@Suite(.enabled(if: MotoServer.shouldRun, MotoServer.skipReason))
struct ConditionDetectionTests {
    @Test func aServerThatRefusesEveryConditionIsMeasuredAsHonouringNone() async throws {
        let proxy = RefusingConditionsProxy()
        let upstream = try await MotoServer.endpoint()
        try await proxy.run(upstream: upstream) { url in
            let service = try await MotoServer.makeService(bucket: MotoServer.uniqueBucket("refuse"), on: url)
            let support = try await service.conditionSupport()
            #expect(support == .none, "measured: \(support)")
            #expect(service.capabilities.conditionalWrites == .bestEffort)
            #expect(proxy.refused > 0, "the detection sent no conditional request")
            let left = try await service.listVersions(prefix: service.reservedKey("probes/"))
            #expect(left.isEmpty, "the probe left \(left.map(\.key))")

            // Every precondition is then checked by the adapter, and holds.
            let before = proxy.refused
            let path = try RemotePath("slot.json")
            let first = try await service.upload(
                from: .bytes(Data("first".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
            await expectServiceError(.conflict) {
                _ = try await service.upload(
                    from: .bytes(Data("again".utf8)), to: path, options: UploadOptions(precondition: .mustNotExist))
            }
            let second = try await service.upload(
                from: .bytes(Data("second".utf8)), to: path,
                options: UploadOptions(precondition: .mustMatch(first.version)))
            await expectServiceError(.conflict) {
                try await service.delete(path, precondition: .mustMatch(first.version))
            }
            try await service.delete(path, precondition: .mustMatch(second.version))
            #expect(proxy.refused == before, "a condition was sent to a server that refuses them all")
        }
    }
}
