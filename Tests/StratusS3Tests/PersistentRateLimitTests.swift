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

/// A proxy in front of moto that answers the requests a rule picks with S3's `SlowDown` (429
/// and a `Retry-After`) and forwards every other request, counting the refused ones.
final class RateLimitingProxy: Sendable {
    /// Picks the requests to refuse from their method and query.
    let refuses: @Sendable (_ method: String, _ query: String) -> Bool
    /// The `Retry-After` value sent with each refusal.
    let retryAfter: String
    private let refusals = Mutex(0)

    init(retryAfter: String = "0", refusing refuses: @escaping @Sendable (_ method: String, _ query: String) -> Bool) {
        self.retryAfter = retryAfter
        self.refuses = refuses
    }

    /// How many requests were refused.
    var refused: Int { refusals.withLock { $0 } }

    /// Runs `body` with the proxy's URL while it forwards to `upstream`.
    func withRunning<Result: Sendable>(upstream: URL, _ body: @Sendable (URL) async throws -> Result) async throws
        -> Result
    {
        let http = try StratusHTTPClient()
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { [self] request, _ in
            let query = request.uri.query ?? ""
            if refuses(request.method.rawValue, query) {
                refusals.withLock { $0 += 1 }
                let error = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
                return Response(
                    status: .tooManyRequests, headers: [.retryAfter: retryAfter, .contentType: "application/xml"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: error))
                )
            }
            return try await forward(request, to: upstream, http: http)
        }
        for path in ["/", "**"] {
            router.get(RouterPath(path), use: handler)
            router.head(RouterPath(path), use: handler)
            router.put(RouterPath(path), use: handler)
            router.post(RouterPath(path), use: handler)
            router.delete(RouterPath(path), use: handler)
        }
        return try await MockServer.withRunning(router, body)
    }

    private func forward(_ request: Request, to upstream: URL, http: StratusHTTPClient) async throws -> Response {
        let target = upstream.absoluteString.trimmingSuffix("/") + request.uri.description
        guard let url = URL(string: target) else { return Response(status: .badRequest) }
        let method = StratusHTTPMethod(rawValue: request.method.rawValue)
        var body = Data()
        for try await buffer in request.body { body.append(contentsOf: buffer.readableBytesView) }
        var headers = StratusHTTPHeaders()
        for field in request.headers
        where !["host", "content-length", "transfer-encoding", "expect"].contains(field.name.canonicalName.lowercased())
        {
            headers.add(field.name.canonicalName, field.value)
        }
        let answer = try await http.execute(
            StratusHTTPRequest(method: method, url: url, headers: headers, body: body.isEmpty ? .empty : .bytes(body)))
        var fields = HTTPFields()
        for field in answer.headers {
            // A HEAD answer's Content-Length is the object's size; any other body is sent as is.
            let dropped =
                method == .head
                ? ["transfer-encoding", "connection"] : ["content-length", "transfer-encoding", "connection"]
            guard !dropped.contains(field.name.lowercased()), let name = HTTPFields.Element.Name(field.name) else {
                continue
            }
            fields.append(HTTPFields.Element(name: name, value: field.value))
        }
        return Response(
            status: .init(code: answer.status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(data: answer.body)))
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

/// A request S3 answers with `SlowDown` every time costs at most the retry policy's
/// `maximumAttempts` requests per operation, and a `Retry-After` beyond the policy's
/// `maximumRetryAfter` (in either form) ends the operation at once.
@Suite(.enabled(if: MotoServer.shouldRun, MotoServer.skipReason))
struct PersistentRateLimitTests {
    /// The moto configuration's policy allows 3 attempts.
    static let maximumAttempts = 3

    private static func content(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) })
    }

    /// Runs `operation` on a fresh bucket behind a proxy that refuses what `refusing` picks once
    /// `prepare` is done; checks that it fails as rate-limited and returns the refusals.
    private static func refusals(
        retryAfter: String = "0",
        refusing: @escaping @Sendable (_ method: String, _ query: String) -> Bool,
        prepare: @Sendable (S3Service) async throws -> Void = { _ in },
        _ operation: @Sendable (S3Service) async throws -> Void
    ) async throws -> Int {
        let armed = Mutex(false)
        let proxy = RateLimitingProxy(retryAfter: retryAfter) { method, query in
            armed.withLock { $0 } && refusing(method, query)
        }
        return try await proxy.withRunning(upstream: try await MotoServer.endpoint()) { url in
            let service = try await MotoServer.makeService(bucket: MotoServer.uniqueBucket("slow"), on: url)
            try await prepare(service)
            armed.withLock { $0 = true }
            let error = await #expect(throws: ServiceError.self) { try await operation(service) }
            #expect(error?.code == .rateLimited, "\(String(describing: error))")
            return proxy.refused
        }
    }

    private static func isObjectRequest(_ query: String) -> Bool {
        !query.contains("uploads") && !query.contains("uploadId") && !query.contains("list-type")
            && !query.contains("versioning")
    }

    @Test func aSmallUploadIsSentAtMostMaximumAttemptsTimes() async throws {
        let refused: @Sendable (String, String) -> Bool = { method, query in
            method == "PUT" && Self.isObjectRequest(query)
        }
        let count = try await Self.refusals(refusing: refused) { service in
            _ = try await service.upload(from: .bytes(Data("small".utf8)), to: RemotePath("small.txt"))
        }
        #expect(count == Self.maximumAttempts)
    }

    /// Parts go up several at once, so each part in flight when the first gives up has its
    /// own attempts; none has more than `maximumAttempts`.
    @Test func aMultipartUploadSendsEachPartAtMostMaximumAttemptsTimes() async throws {
        let bytes = Self.content(Int(3 * MotoServer.minimumPartSize))
        let attempts = PartAttempts()
        let count = try await Self.refusals(refusing: { method, query in
            guard method == "PUT", query.contains("partNumber") else { return false }
            attempts.count(query)
            return true
        }) { service in
            _ = try await service.upload(from: .bytes(bytes), to: RemotePath("large.bin"))
        }
        let perPart = attempts.all
        #expect(count == perPart.values.reduce(0, +))
        #expect(perPart.values.allSatisfy { $0 <= Self.maximumAttempts }, "\(perPart)")
        #expect(perPart.values.contains(Self.maximumAttempts), "\(perPart)")
    }

    /// Counts the requests of each part (by their query, which names the part).
    final class PartAttempts: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        func count(_ query: String) { counts.withLock { $0[query, default: 0] += 1 } }
        var all: [String: Int] { counts.withLock { $0 } }
    }

    @Test func aMultipartUploadIsCompletedAtMostMaximumAttemptsTimes() async throws {
        let bytes = Self.content(Int(3 * MotoServer.minimumPartSize))
        let refused: @Sendable (String, String) -> Bool = { method, query in
            method == "POST" && query.contains("uploadId")
        }
        let count = try await Self.refusals(refusing: refused) { service in
            _ = try await service.upload(from: .bytes(bytes), to: RemotePath("large.bin"))
        }
        #expect(count == Self.maximumAttempts)
    }

    @Test func aDownloadIsAskedAtMostMaximumAttemptsTimes() async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "s3-ratelimit")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let path = try RemotePath("read.txt")
        let count = try await Self.refusals(
            refusing: { method, query in method == "GET" && Self.isObjectRequest(query) },
            prepare: { service in
                _ = try await service.upload(from: .bytes(Data("read me".utf8)), to: path)
            }
        ) { service in
            _ = try await service.download(path, to: folder.appending(path: "read.txt"))
        }
        #expect(count == Self.maximumAttempts)
    }

    @Test func aDeleteIsSentAtMostMaximumAttemptsTimes() async throws {
        let path = try RemotePath("doomed.txt")
        let count = try await Self.refusals(
            refusing: { method, _ in method == "DELETE" },
            prepare: { service in
                _ = try await service.upload(from: .bytes(Data("bye".utf8)), to: path)
            }
        ) { service in
            try await service.delete(path)
        }
        #expect(count == Self.maximumAttempts)
    }

    @Test func aListingAndAMetadataLookupAreAskedAtMostMaximumAttemptsTimes() async throws {
        let listed = try await Self.refusals(refusing: { method, query in method == "GET" && query.contains("list-type")
        }) { service in
            _ = try await service.list(.root)
        }
        #expect(listed == Self.maximumAttempts)
        let looked = try await Self.refusals(refusing: { method, _ in method == "HEAD" }) { service in
            _ = try await service.metadata(of: RemotePath("any.txt"))
        }
        #expect(looked == Self.maximumAttempts)
    }

    @Test func theChangeFeedIsAskedAtMostMaximumAttemptsTimes() async throws {
        let count = try await Self.refusals(refusing: { method, query in method == "GET" && query.contains("versions") }
        ) { service in
            let token = try await service.latestChangeToken()
            _ = try await service.changes(since: token)
        }
        #expect(count == Self.maximumAttempts)
    }

    @Test(arguments: ["3600", "Fri, 01 Jan 2100 00:00:00 GMT"])
    func aDownloadAskedToWaitLongerThanThePolicyAllowsStopsAtOnce(retryAfter: String) async throws {
        let temporaryFolder = try TemporaryFolder(prefix: "s3-ratelimit")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let path = try RemotePath("read.txt")
        let count = try await Self.refusals(
            retryAfter: retryAfter, refusing: { method, query in method == "GET" && Self.isObjectRequest(query) },
            prepare: { service in
                _ = try await service.upload(from: .bytes(Data("read me".utf8)), to: path)
            }
        ) { service in
            _ = try await service.download(path, to: folder.appending(path: "read.txt"))
        }
        // The policy's maximumRetryAfter is 300 s: the provider's error comes back at once.
        #expect(count == 1)
    }
}
