import Foundation
import Hummingbird
import MockSupport
import NIOSSL
import StratusHTTP
import StratusTestSupport
import Synchronization
import Testing

/// A request the server holds open (a long poll) never makes another request to the same origin
/// wait for it, whatever the scheme and protocol version: the second request gets a connection
/// of its own (HTTP/1.1) or a stream beside the held one (HTTP/2).
@Suite struct HeldRequestTests {
    /// How long the server holds the first request: far beyond ``promptly``, so a second request
    /// that waited behind it misses the bound by minutes, not by scheduling noise.
    static let hold = Duration.seconds(120)
    /// How long the second request may take, generous for a busy machine.
    static let promptly = Duration.seconds(20)

    @Test func plainHTTPRequestDoesNotWaitBehindAHeldOne() async throws {
        let gate = HoldGate()
        try await TestServer.with(gate.router()) { base in
            let response = try await Self.requestBesideAHeldOne(base: base, gate: gate, configuration: .init())
            #expect(response?.connection.httpVersion == "HTTP/1.1")
        }
    }

    @Test func httpsHTTP1RequestDoesNotWaitBehindAHeldOne() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-held")
        defer { folder.remove() }
        let certificates = try await MockCertificates.create(in: folder.url)
        let gate = HoldGate()
        try await TestServer.with(gate.router(), tls: try certificates.serverConfiguration()) { base in
            let configuration = StratusHTTPClient.Configuration(trustRoots: .caFile(certificates.caCertificate))
            let response = try await Self.requestBesideAHeldOne(base: base, gate: gate, configuration: configuration)
            #expect(response?.connection.httpVersion == "HTTP/1.1")
        }
    }

    @Test func httpsHTTP2RequestDoesNotWaitBehindAHeldOne() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-held")
        defer { folder.remove() }
        let certificates = try await MockCertificates.create(in: folder.url)
        let gate = HoldGate()
        try await HTTP2TestServer.with(gate.router(), tls: try certificates.serverConfiguration()) { base in
            let configuration = StratusHTTPClient.Configuration(trustRoots: .caFile(certificates.caCertificate))
            let response = try await Self.requestBesideAHeldOne(base: base, gate: gate, configuration: configuration)
            #expect(response?.connection.httpVersion == "HTTP/2")
        }
    }

    /// An `https` request whose redirect leads to a plain-`http` origin where a request is held.
    @Test func redirectToPlainHTTPDoesNotWaitBehindAHeldOne() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-held")
        defer { folder.remove() }
        let certificates = try await MockCertificates.create(in: folder.url)
        let gate = HoldGate()
        try await TestServer.with(gate.router()) { plain in
            let redirecting = Router()
            redirecting.post("/quick") { _, _ -> Response in
                Response(
                    status: .temporaryRedirect, headers: [.location: plain.appending(path: "quick").absoluteString])
            }
            try await TestServer.with(redirecting, tls: try certificates.serverConfiguration()) { secure in
                let configuration = StratusHTTPClient.Configuration(
                    trustRoots: .caFile(certificates.caCertificate), redirects: .follow(maximum: 3))
                let response = try await Self.requestBesideAHeldOne(
                    base: plain, quick: secure.appending(path: "quick"), gate: gate, configuration: configuration)
                #expect(response?.connection.httpVersion == "HTTP/1.1")
            }
        }
    }

    /// Starts a request the server holds, waits until the server has it, then sends a second
    /// request to the same origin (or to `quickURL`, which leads there) and returns its answer, or `nil` (recorded as an issue) when
    /// it took longer than ``promptly``. The held request is cancelled at the end, which shows
    /// it was still held all along.
    private static func requestBesideAHeldOne(
        base: URL, quick quickURL: URL? = nil, gate: HoldGate, configuration: StratusHTTPClient.Configuration
    ) async throws -> StratusHTTPResponse? {
        let client = try StratusHTTPClient(configuration: configuration)
        // A POST with a body that reads, as Dropbox's long poll does.
        var held = StratusHTTPRequest(method: .post, url: base.appending(path: "hold"), body: .bytes(Data("{}".utf8)))
        held.isIdempotent = true
        held.stallTimeout = hold + .seconds(60)
        let holding = Task { try await client.execute(held) }
        defer {
            holding.cancel()
            gate.release()
        }
        let arrived = try await valueWithin(.seconds(60)) { await gate.firstArrival() }
        #expect(arrived != nil, "the server never received the request it should hold")

        let started = ContinuousClock.now
        // Idempotent, as a read through POST is, so a followed 307 may send it again.
        var second = StratusHTTPRequest(
            method: .post, url: quickURL ?? base.appending(path: "quick"), body: .bytes(Data("{}".utf8)))
        second.isIdempotent = true
        let quick = try await valueWithin(promptly) { [second] in try await client.execute(second) }
        let elapsed = ContinuousClock.now - started
        #expect(quick != nil, "the second request was still waiting after \(elapsed)")
        #expect(quick.map { String(decoding: $0.body, as: UTF8.self) } == "quick")

        holding.cancel()
        let heldOutcome = await holding.result
        if case .failure(let error as StratusHTTPClientError) = heldOutcome {
            #expect(error.code == .cancelled, "the held request ended with \(error) before it was cancelled")
        } else {
            Issue.record("the held request ended before it was cancelled: \(heldOutcome)")
        }
        await client.shutdown()
        return quick
    }
}

/// The value of `operation`, or `nil` when it takes longer than `limit` (it is then cancelled).
private func valueWithin<Value: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value? {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

/// Routes that hold a request until released (or ``HeldRequestTests/hold`` passed, or the
/// server stops), and answer another at once.
private final class HoldGate: Sendable {
    private let released = Atomic<Bool>(false)
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation

    init() {
        (arrivals, arrived) = AsyncStream<Void>.makeStream()
    }

    /// Lets a held request answer, so the server can shut down without waiting out the hold.
    func release() {
        released.store(true, ordering: .releasing)
    }

    /// Returns once the server has received a request to hold.
    func firstArrival() async {
        for await _ in arrivals { return }
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/hold") { [self] request, _ -> String in
            _ = try await request.body.collect(upTo: 1024)
            arrived.yield()
            let deadline = ContinuousClock.now + HeldRequestTests.hold
            while ContinuousClock.now < deadline, !released.load(ordering: .acquiring), !ServerLifetime.isStopping {
                try await Task.sleep(for: .milliseconds(100))
            }
            return "held"
        }
        router.post("/quick") { request, _ -> String in
            _ = try await request.body.collect(upTo: 1024)
            return "quick"
        }
        return router
    }
}
