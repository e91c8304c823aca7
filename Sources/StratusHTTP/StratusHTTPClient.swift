import Foundation
import Logging
import Synchronization

/// An HTTP client over libcurl: one multi handle driven by one thread, with async/await on top.
///
/// Any number of requests can be in flight at once without a thread each; connections are
/// reused across requests, and HTTP/2 is used when a TLS server offers it. Bodies stream from
/// and to disk, digests are computed while bytes move, and cancelling the calling task stops a
/// transfer within milliseconds, leaving no temporary file.
///
/// ```swift
/// let client = try StratusHTTPClient()
/// let response = try await client.execute(StratusHTTPRequest(url: url), into: .unverifiedFile(destination))
/// try await client.shutdown()
/// ```
///
/// Call ``shutdown()`` when done; requests still running then fail with
/// ``StratusHTTPClientError/Code/shutDown``.
public final class StratusHTTPClient: Sendable {
    /// The client's configuration.
    public let configuration: Configuration
    private let loop: CurlEventLoop

    /// Creates a client and starts its thread.
    /// - Parameter configuration: Timeouts, trust roots, redirects and buffers.
    /// - Throws: ``StratusHTTPClientError`` when libcurl cannot be initialised.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.loop = try CurlEventLoop(configuration: configuration)
    }

    deinit {
        loop.requestShutdown()
    }

    /// The version of libcurl in use, such as `7.88.1`.
    public static var curlVersion: String { CurlGlobal.version }

    /// Sends a request and receives the whole response.
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: Where the response body goes; memory with a 16 MiB cap by default.
    ///   - progress: Called on the client's thread as bytes move; keep it quick.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``StratusHTTPClientError`` when no complete response was received (connection,
    ///   timeout, TLS, local file, size cap, cancellation).
    public func execute(
        _ request: StratusHTTPRequest,
        into destination: HTTPResponseDestination = .memory(limit: 16 * 1024 * 1024),
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws(StratusHTTPClientError) -> StratusHTTPResponse {
        let original = request
        var request = request
        let sink: any ResponseSink
        switch destination {
        case .memory(let limit): sink = MemorySink(limit: limit)
        case .unverifiedFile(let url): sink = FileSink(destination: url, errorBodyLimit: configuration.errorBodyLimit)
        case .resumableFile(let url):
            let resumable = try ResumableFileSink(
                url: url, digests: request.responseDigests, errorBodyLimit: configuration.errorBodyLimit)
            if resumable.existingLength > 0 {
                request.headers.set("Range", "bytes=\(resumable.existingLength)-")
            }
            sink = resumable
        }
        let started = ContinuousClock.now
        let outcome = try await run(request, sink: sink, progress: progress)
        if outcome.status == 416, let resumable = sink as? ResumableFileSink, resumable.existingLength > 0 {
            // The file holds more than the content now has (it changed, or every byte had
            // arrived before the failure): the sink emptied it, so this asks for all of it.
            return try await execute(original, into: destination, progress: progress)
        }
        var file = outcome.output.file
        if let pending = outcome.output.pendingFile {
            try pending.commit()
            file = pending.destination
        }
        configuration.logger.debug(
            "HTTP response",
            metadata: [
                "request": "\(request)", "status": "\(outcome.status)",
                "bytes": "\(outcome.bodyLength)", "elapsed": "\(ContinuousClock.now - started)",
            ])
        return StratusHTTPResponse(
            status: outcome.status,
            headers: outcome.headers,
            body: outcome.output.body,
            file: file,
            bodyLength: outcome.bodyLength,
            bodyDigests: await outcome.pendingBodyDigests?.digests() ?? outcome.bodyDigests,
            requestBodyDigests: outcome.requestBodyDigests,
            connection: outcome.connection
        )
    }

    /// Sends a request and returns as soon as the response's header arrived; the body is read
    /// from ``HTTPStreamingResponse/body`` as it comes.
    /// - Parameters:
    ///   - request: The request.
    ///   - progress: Called on the client's thread as bytes move; keep it quick.
    /// - Returns: The status, header fields and body stream.
    /// - Throws: ``StratusHTTPClientError`` when no response header was received.
    public func stream(
        _ request: StratusHTTPRequest,
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws(StratusHTTPClientError) -> HTTPStreamingResponse {
        let started = ContinuousClock.now
        let source = try openSource(request)
        let head = HeadHandOver()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPStreamingResponse, StratusHTTPClientError>, Never>) in
                let box = TransferBox()
                let buffer = StreamBuffer(
                    capacity: configuration.streamBufferSize,
                    resumeWriter: { [loop] in if let transfer = box.transfer { loop.resume(transfer) } },
                    cancelTransfer: { [loop] in
                        if let transfer = box.transfer {
                            loop.cancel(
                                transfer, reason: StratusHTTPClientError(.cancelled, "The request was cancelled."))
                        }
                    }
                )
                let sink = StreamSink(buffer: buffer, deliverHead: { continuation.resume(returning: $0) })
                let transfer = CurlTransfer(
                    request: request, source: source, sink: sink, progress: progress, deliver: { _ in })
                box.transfer = transfer
                head.attach(transfer, loop: loop)
                loop.submit(transfer)
            }
        } onCancel: {
            head.cancel()
        }
        let answer = try? result.get()
        HTTPRequestMetrics.record(
            method: request.method, status: answer?.status, since: started,
            sent: answer == nil ? nil : source.length, received: nil)
        return try result.get()
    }

    /// Stops the client's thread after failing every request still running.
    public func shutdown() async {
        await loop.shutdown()
    }

    private func openSource(_ request: StratusHTTPRequest) throws(StratusHTTPClientError) -> RequestBodySource {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw StratusHTTPClientError(
                .invalidRequest, "Only http and https URLs can be requested, not \(Redaction.url(request.url)).")
        }
        // Checked here, before any transfer exists, so the transfer can start its digests
        // without a way to fail.
        _ = try request.responseDigests.makeDigests()
        do {
            return try RequestBodySource(request.body, digests: request.requestDigests)
        } catch let error as StratusHTTPClientError {
            throw error
        } catch {
            throw StratusHTTPClientError(
                .localFile, "The request body could not be opened.", underlying: SendableDescription(error))
        }
    }

    private func run(
        _ request: StratusHTTPRequest,
        sink: any ResponseSink,
        progress: (@Sendable (HTTPProgress) -> Void)?
    ) async throws(StratusHTTPClientError) -> TransferOutcome {
        let started = ContinuousClock.now
        let source = try openSource(request)
        let head = HeadHandOver()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<TransferOutcome, StratusHTTPClientError>, Never>) in
                let transfer = CurlTransfer(request: request, source: source, sink: sink, progress: progress) {
                    continuation.resume(returning: $0)
                }
                head.attach(transfer, loop: loop)
                loop.submit(transfer)
            }
        } onCancel: {
            head.cancel()
        }
        let outcome = try? result.get()
        HTTPRequestMetrics.record(
            method: request.method, status: outcome?.status, since: started,
            sent: outcome == nil ? nil : source.length, received: outcome?.bodyLength)
        return try result.get()
    }
}

/// Lets a cancellation handler reach a transfer that may not exist yet when it runs.
private final class HeadHandOver: Sendable {
    private struct State {
        var transfer: CurlTransfer?
        var loop: CurlEventLoop?
        var cancelled = false
    }

    private let state = Mutex(State())

    func attach(_ transfer: CurlTransfer, loop: CurlEventLoop) {
        let cancelNow = state.withLock { state -> Bool in
            state.transfer = transfer
            state.loop = loop
            return state.cancelled
        }
        if cancelNow { loop.cancel(transfer, reason: StratusHTTPClientError(.cancelled, "The request was cancelled.")) }
    }

    func cancel() {
        let target = state.withLock { state -> (CurlTransfer, CurlEventLoop)? in
            state.cancelled = true
            guard let transfer = state.transfer, let loop = state.loop else { return nil }
            return (transfer, loop)
        }
        if let (transfer, loop) = target {
            loop.cancel(transfer, reason: StratusHTTPClientError(.cancelled, "The request was cancelled."))
        }
    }
}

/// Holds the transfer for closures made before it exists; written once before submission.
private final class TransferBox: Sendable {
    private let value = Mutex<CurlTransfer?>(nil)
    var transfer: CurlTransfer? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
