import CCurl
import Foundation
import Stratus
import StratusDigest
import Synchronization

/// How a transfer ended, as the event loop hands it to the waiting caller.
struct TransferOutcome: Sendable {
    var status: Int
    var headers: StratusHTTPHeaders
    var output: SinkOutput
    var bodyLength: Int64
    var bodyDigests: [HashAlgorithm: String]
    /// The body's digests when they are still being computed off the event loop (a large body).
    var pendingBodyDigests: BackgroundDigester?
    var requestBodyDigests: [HashAlgorithm: String]
    var connection: ConnectionInfo
}

/// One request in flight: its libcurl easy handle, body source, sink and callbacks.
///
/// `@unchecked Sendable`: after ``CurlEventLoop/submit(_:)`` every mutable property is touched
/// only on the event-loop thread (libcurl calls the callbacks there); the hand-over itself goes
/// through the loop's `inbox` Mutex. The one field other threads read, `isCancelRequested`, is
/// an `Atomic`.
final class CurlTransfer: @unchecked Sendable {
    let request: StratusHTTPRequest
    let source: RequestBodySource
    let sink: any ResponseSink
    private let progressHandler: (@Sendable (HTTPProgress) -> Void)?
    private let deliver: (Result<TransferOutcome, StratusHTTPClientError>) -> Void
    private var responseDigests: [any IncrementalDigest]
    /// Hashes a large body off the event-loop thread (set once its header block announced one).
    private var backgroundDigester: BackgroundDigester?
    /// Asks the event loop to resume this transfer after it paused for its caller.
    private var wake: (@Sendable () -> Void)?

    /// Set from any thread once cancellation was asked for.
    let isCancelRequested = Atomic<Bool>(false)

    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var caBlob: Data?

    private var status = 0
    private var headers = StratusHTTPHeaders()
    private var headersDelivered = false
    private var followsRedirects = false
    private var bodyLength: Int64 = 0
    /// The most the content may hold (``StratusHTTPRequest/contentSizeLimit``), once the headers
    /// arrived.
    private var allowedContentLength: Int64?
    /// Bytes of a resumed body that were in place before this answer (added to progress).
    private var resumedLength: Int64 = 0
    private var lastProgress: HTTPProgress?

    /// Why a callback stopped the transfer, which libcurl reports only as "aborted".
    var failure: StratusHTTPClientError?
    /// When bytes last moved, for stall detection.
    var lastActivity = ContinuousClock.now
    /// Whether the transfer waits for the caller (slow reader or slow body producer), which does
    /// not count as a stall.
    var isPausedForCaller = false

    init(
        request: StratusHTTPRequest,
        source: RequestBodySource,
        sink: any ResponseSink,
        progress: (@Sendable (HTTPProgress) -> Void)?,
        deliver: @escaping (Result<TransferOutcome, StratusHTTPClientError>) -> Void
    ) {
        self.request = request
        self.source = source
        self.sink = sink
        self.progressHandler = progress
        self.deliver = deliver
        // The client checked every algorithm when it opened the body (an unknown one is an
        // `invalidRequest` before anything is sent), so none is dropped here.
        self.responseDigests = request.responseDigests.compactMap { try? $0.makeDigest() }
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let easy { curl_easy_cleanup(easy) }
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    // MARK: Setup (event-loop thread)

    /// Bodies announced at least this long are hashed off the event-loop thread; shorter ones
    /// cost less to hash in place than to hand over.
    static let backgroundDigestThreshold: Int64 = 8 * 1024 * 1024

    /// Starts the body source; `wake` asks the loop to resume the transfer once whatever it
    /// paused for (a slow body producer, the digests of a large body) can go on.
    func start(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
        source.start(wake: wake)
    }

    /// Makes and configures the easy handle.
    func makeHandle(configuration: StratusHTTPClient.Configuration) throws(StratusHTTPClientError)
        -> UnsafeMutableRawPointer
    {
        guard let easy = curl_easy_init() else {
            throw StratusHTTPClientError(.transport, "libcurl could not create a transfer handle.")
        }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        var options = CurlOptions(easy: easy)

        options.set(CURLOPT_NOSIGNAL, 1)
        options.set(CURLOPT_URL, request.url.absoluteString)
        options.set(CURLOPT_PROTOCOLS_STR, "http,https")
        options.set(CURLOPT_ERRORBUFFER, UnsafeRawPointer(errorBuffer))
        options.set(CURLOPT_SSL_VERIFYPEER, 1)
        options.set(CURLOPT_SSL_VERIFYHOST, 2)
        options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        options.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        options.set(CURLOPT_PIPEWAIT, Self.waitsForMultiplexing(request.url, configuration: configuration) ? 1 : 0)
        options.set(CURLOPT_BUFFERSIZE, configuration.bufferSize)
        options.set(CURLOPT_UPLOAD_BUFFERSIZE, configuration.uploadBufferSize)
        options.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.timeouts.connect))
        if let total = request.totalTimeout ?? configuration.timeouts.total {
            options.set(CURLOPT_TIMEOUT_MS, milliseconds(total))
        }

        switch configuration.trustRoots {
        case .system:
            break
        case .caFile(let url):
            options.set(CURLOPT_CAINFO, url.path)
            options.setNull(CURLOPT_CAPATH)
        case .caPEM(let pem):
            caBlob = pem
            options.setBlob(CURLOPT_CAINFO_BLOB, pem)
            options.setNull(CURLOPT_CAPATH)
        }

        switch configuration.redirects {
        case .disallow:
            options.set(CURLOPT_FOLLOWLOCATION, 0)
        case .follow(let maximum):
            followsRedirects = true
            options.set(CURLOPT_FOLLOWLOCATION, 1)
            options.set(CURLOPT_MAXREDIRS, maximum)
            options.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            options.set(CURLOPT_UNRESTRICTED_AUTH, 0)
        }

        options.setCallback(CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        options.set(CURLOPT_HEADERDATA, UnsafeRawPointer(context))
        options.setCallback(CURLOPT_WRITEFUNCTION, curlWriteCallback)
        options.set(CURLOPT_WRITEDATA, UnsafeRawPointer(context))
        options.setProgressCallback(curlProgressCallback)
        options.set(CURLOPT_XFERINFODATA, UnsafeRawPointer(context))
        options.set(CURLOPT_NOPROGRESS, 0)

        var fields = request.headers
        let method = request.method
        let hasBody = source.length != 0 || method == .post || method == .put || method == .patch
        if method == .head {
            options.set(CURLOPT_NOBODY, 1)
        } else if !hasBody {
            options.set(CURLOPT_HTTPGET, 1)
            if method != .get { options.set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        } else {
            options.set(CURLOPT_POST, 1)
            if method != .post { options.set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
            options.setCallback(CURLOPT_READFUNCTION, curlReadCallback)
            options.set(CURLOPT_READDATA, UnsafeRawPointer(context))
            options.setSeekCallback(curlSeekCallback)
            options.set(CURLOPT_SEEKDATA, UnsafeRawPointer(context))
            options.set(CURLOPT_POSTFIELDSIZE_LARGE, Int64(source.length ?? -1))
            if source.length == nil, !fields.contains("Transfer-Encoding") {
                fields.add("Transfer-Encoding", "chunked")
            }
            if !fields.contains("Content-Type") { fields.add("Content-Type", "") }
            fields.remove("Content-Length")
        }
        if !fields.contains("User-Agent") { fields.add("User-Agent", configuration.userAgent) }
        if !fields.contains("Expect") {
            // libcurl adds `Expect: 100-continue` by its own rules unless told otherwise: the
            // client decides (see `Configuration.expectContinueThreshold`).
            if hasBody, method != .head, let threshold = configuration.expectContinueThreshold,
                source.length.map({ $0 >= threshold }) ?? true
            {
                fields.add("Expect", "100-continue")
                options.set(CURLOPT_EXPECT_100_TIMEOUT_MS, expectContinueWait(configuration))
            } else {
                fields.add("Expect", "")
            }
        }
        if !request.isIdempotent, source.length == 0 {
            // libcurl resends a request on its own when a reused connection closes before any
            // answer; with body bytes it must rewind first, which `rewindBody(to:)` refuses, but
            // a request without any would go out again unasked. A fresh connection is never
            // taken for a stale one.
            options.set(CURLOPT_FRESH_CONNECT, 1)
        }
        for field in fields {
            // An empty value tells libcurl to drop a header it would add itself.
            let line = field.value.isEmpty ? "\(field.name):" : "\(field.name): \(field.value)"
            headerList = curl_slist_append(headerList, line)
        }
        options.set(CURLOPT_HTTPHEADER, UnsafeRawPointer(headerList))

        if let failure = options.failure {
            throw failure
        }
        return easy
    }

    /// Whether a request waits for a connection in progress to the same origin to show whether
    /// it multiplexes (`CURLOPT_PIPEWAIT`), instead of opening one of its own.
    ///
    /// Only on `https`, where TLS's ALPN tells within the handshake. On plain `http` libcurl
    /// learns it only from the first answer's status line, so a request would wait behind a
    /// request the server holds (a long poll) until that one answered. A followed redirect may
    /// lead to plain `http`, so a request that follows redirects never waits either.
    static func waitsForMultiplexing(_ url: URL, configuration: StratusHTTPClient.Configuration) -> Bool {
        guard url.scheme?.lowercased() == "https" else { return false }
        if case .follow = configuration.redirects { return false }
        return true
    }

    /// How long libcurl waits for `100 Continue`, in milliseconds: the configured wait, at most
    /// half the stall timeout so the wait is never taken for a stall.
    private func expectContinueWait(_ configuration: StratusHTTPClient.Configuration) -> Int {
        var wait = configuration.expectContinueTimeout
        if let stall = configuration.timeouts.stall, wait > stall / 2 { wait = stall / 2 }
        return milliseconds(wait)
    }

    // MARK: Callbacks (event-loop thread)

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = .now
        // Header lines are parsed as bytes: Foundation's trimming cost a third of the CPU of
        // small requests in the benchmark.
        let line = Self.trimmed(bytes[...])
        if line.starts(with: Self.statusLinePrefix) {
            let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
            status = parts.count > 1 ? Int(String(decoding: parts[1], as: UTF8.self)) ?? 0 : 0
            headers = StratusHTTPHeaders()
        } else if line.isEmpty {
            let isInterim = status < 200
            let isFollowedRedirect = followsRedirects && (300..<400).contains(status) && headers.contains("Location")
            if !isInterim, !isFollowedRedirect, !headersDelivered, let error = deliverHeaders() {
                failure = error
                return 0
            }
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: Self.trimmed(line[..<colon]), as: UTF8.self)
            let value = String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self)
            headers.add(name, value)
        }
        return bytes.count
    }

    private static let statusLinePrefix = Array("HTTP/".utf8)

    /// Hands the final header block to the sink once; a body that continues content already in
    /// place counts that content in its length, digests and progress.
    private func deliverHeaders() -> StratusHTTPClientError? {
        headersDelivered = true
        if let error = sink.headersComplete(status: status, headers: headers) { return error }
        if let resumed = sink.resumedContent {
            responseDigests = resumed.digests
            bodyLength = resumed.length
            resumedLength = resumed.length
        }
        if sink.isContent, let limit = request.contentSizeLimit {
            guard let allowed = limit.allowed(headers), allowed >= 0 else {
                return StratusHTTPClientError(
                    .invalidResponse, "The answer declares no size for its content; nothing of it was taken.")
            }
            let announced = headers["Content-Length"].flatMap { Int64($0) }.map {
                $0.addingReportingOverflow(bodyLength)
            }
            if let announced, announced.overflow || announced.partialValue > allowed {
                return Self.tooLarge(allowed)
            }
            allowedContentLength = allowed
        }
        if sink.isContent, !responseDigests.isEmpty, let announced = headers["Content-Length"].flatMap({ Int64($0) }),
            announced >= Self.backgroundDigestThreshold
        {
            backgroundDigester = BackgroundDigester(responseDigests)
        }
        return nil
    }

    /// The error for a content body longer than its limit.
    private static func tooLarge(_ allowed: Int64) -> StratusHTTPClientError {
        StratusHTTPClientError(
            .bodyTooLarge,
            "The answer's content is longer than the \(allowed) bytes declared for it; the transfer was stopped there.")
    }

    /// The bytes without leading and trailing spaces, tabs, CR and LF.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = .now
        if !headersDelivered, let error = deliverHeaders() {
            failure = error
            return 0
        }
        if isCancelRequested.load(ordering: .relaxed) {
            // libcurl may read many buffers in one go before the loop hears of the cancellation.
            failure = StratusHTTPClientError(.cancelled, "The request was cancelled.")
            return 0
        }
        if let backgroundDigester, let wake, !backgroundDigester.hasRoom(orWake: wake) {
            // The digests fell behind: nothing is written until they catch up, and libcurl
            // offers these bytes again on resume.
            isPausedForCaller = true
            return Int(STRATUS_CURL_WRITEFUNC_PAUSE)
        }
        if sink.isContent, let allowed = allowedContentLength,
            bodyLength > allowed || Int64(bytes.count) > allowed - bodyLength
        {
            failure = Self.tooLarge(allowed)
            return 0
        }
        switch sink.receive(bytes) {
        case .accepted:
            if let backgroundDigester {
                backgroundDigester.take(bytes)
            } else if sink.isContent {
                for digest in responseDigests { digest.update(bytes) }
            }
            bodyLength += Int64(bytes.count)
            // libcurl reads up to 100 buffers in one go while the socket stays readable (a fast
            // server on loopback) and calls the progress callback only after them, so the body's
            // progress is also reported here, as it arrives.
            let last = lastProgress
            reportProgress(
                sent: last?.bytesSent ?? 0, toSend: 0, received: bodyLength - resumedLength,
                toReceive: last?.bytesToReceive.map { $0 - resumedLength } ?? 0)
            return bytes.count
        case .pause:
            isPausedForCaller = true
            return Int(STRATUS_CURL_WRITEFUNC_PAUSE)
        case .fail(let error):
            failure = error
            return 0
        }
    }

    func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        lastActivity = .now
        switch source.read(into: buffer) {
        case .bytes(let count):
            return count
        case .pause:
            isPausedForCaller = true
            return Int(STRATUS_CURL_READFUNC_PAUSE)
        case .fail(let error):
            failure = error
            return Int(STRATUS_CURL_READFUNC_ABORT)
        }
    }

    /// Rewinds the body for libcurl. The only rewind a request of this client meets is
    /// libcurl's own resend after a reused connection closed without an answer, which a
    /// request that is not idempotent must not get (see ``StratusHTTPRequest/isIdempotent``).
    func rewindBody(to offset: Int64) -> Bool {
        guard request.isIdempotent else {
            failure = StratusHTTPClientError(
                .connectionLost,
                "The connection closed before an answer came; the request was not sent again, as repeating it could apply it twice."
            )
            return false
        }
        return source.rewind(to: offset)
    }

    func reportProgress(sent: Int64, toSend: Int64, received: Int64, toReceive: Int64) {
        guard let progressHandler else { return }
        // libcurl's counts come from the server's Content-Length: added without trapping.
        let progress = HTTPProgress(
            bytesSent: sent,
            bytesToSend: source.length ?? (toSend > 0 ? toSend : nil),
            bytesReceived: Self.saturatingSum(resumedLength, received),
            bytesToReceive: toReceive > 0 ? Self.saturatingSum(resumedLength, toReceive) : nil
        )
        if let lastProgress, lastProgress.bytesSent >= sent, lastProgress.bytesReceived >= progress.bytesReceived {
            return
        }
        lastProgress = progress
        progressHandler(progress)
    }

    private static func saturatingSum(_ first: Int64, _ second: Int64) -> Int64 {
        let (sum, overflow) = first.addingReportingOverflow(second)
        return overflow ? Int64.max : sum
    }

    // MARK: Completion (event-loop thread)

    /// The text libcurl left in the error buffer.
    var curlErrorDetail: String { String(cString: errorBuffer) }

    /// Ends the transfer with a result and hands it to the caller. Called once, after the handle
    /// left the multi handle (or never joined it).
    func complete(with error: StratusHTTPClientError?) {
        source.close()
        if let error {
            sink.abandon()
            (sink as? StreamSink)?.fail(error)
            deliver(.failure(error))
            return
        }
        if !headersDelivered, let error = deliverHeaders() {
            sink.abandon()
            deliver(.failure(error))
            return
        }
        var digests: [HashAlgorithm: String] = [:]
        if let backgroundDigester {
            backgroundDigester.finish()
        } else if sink.isContent {
            for digest in responseDigests { digests[digest.algorithm] = digest.finalizeHex() }
        }
        let output = sink.finish()
        deliver(
            .success(
                TransferOutcome(
                    status: status,
                    headers: headers,
                    output: output,
                    bodyLength: bodyLength,
                    bodyDigests: digests,
                    pendingBodyDigests: backgroundDigester,
                    requestBodyDigests: source.finishDigests(),
                    connection: connectionInfo()
                )))
    }

    private func connectionInfo() -> ConnectionInfo {
        var newConnections = 0
        var version = 0
        if let easy {
            _ = stratus_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &newConnections)
            _ = stratus_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        }
        let name: String
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): name = "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_1_1): name = "HTTP/1.1"
        case Int(CURL_HTTP_VERSION_2_0): name = "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): name = "HTTP/3"
        default: name = "unknown"
        }
        return ConnectionInfo(reused: newConnections == 0, httpVersion: name)
    }

    private func milliseconds(_ duration: Duration) -> Int {
        let parts = duration.components
        return max(1, Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000))
    }
}
