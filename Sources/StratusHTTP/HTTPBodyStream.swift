public import Foundation
import Synchronization

/// A response body read chunk by chunk as it arrives.
///
/// The client holds at most about ``StratusHTTPClient/Configuration/streamBufferSize`` bytes that the
/// reader has not taken; beyond that the transfer pauses until the reader catches up. Cancelling
/// the reading task, or dropping the stream before its end, cancels the transfer.
public final class HTTPBodyStream: AsyncSequence, Sendable {
    /// One chunk of the body as it arrived from the network.
    public typealias Element = Data

    let buffer: StreamBuffer

    init(buffer: StreamBuffer) { self.buffer = buffer }

    /// A body that yields these chunks and then ends, or fails with `failure` after the last
    /// chunk: for tests of code that reads an ``HTTPStreamingResponse``.
    /// - Parameters:
    ///   - chunks: The chunks, in order.
    ///   - failure: The error the reader meets after the chunks, or `nil` for a clean end.
    public convenience init(chunks: [Data], failure: StratusHTTPClientError? = nil) {
        self.init(buffer: StreamBuffer(finishedWith: chunks, failure: failure))
    }

    deinit { buffer.readerLeft() }

    /// Reads chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: HTTPBodyStream

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: ``StratusHTTPClientError`` when the transfer fails or the task is cancelled.
        public mutating func next() async throws -> Data? {
            try await stream.buffer.next()
        }
    }

    /// An iterator over the chunks not yet read; iterators share the one stream, so each chunk is read once.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(stream: self) }

    /// Reads the whole remaining body into memory.
    /// - Parameter limit: The most bytes to accept.
    /// - Throws: ``StratusHTTPClientError`` (`bodyTooLarge`) past the limit, or the transfer's failure.
    public func collect(upTo limit: Int) async throws -> Data {
        var result = Data()
        for try await chunk in self {
            guard result.count + chunk.count <= limit else {
                throw StratusHTTPClientError(
                    .bodyTooLarge, "The response body is larger than the limit of \(limit) bytes.")
            }
            result.append(chunk)
        }
        return result
    }
}

/// The hand-over point between libcurl's write callback and a stream's reader.
final class StreamBuffer: Sendable {
    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var finished = false
        var failure: StratusHTTPClientError?
        var waiting: CheckedContinuation<Data?, any Error>?
        var writerPaused = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let resumeWriter: @Sendable () -> Void
    private let cancelTransfer: @Sendable () -> Void

    init(capacity: Int, resumeWriter: @escaping @Sendable () -> Void, cancelTransfer: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        self.resumeWriter = resumeWriter
        self.cancelTransfer = cancelTransfer
    }

    /// A buffer that already holds a whole body and its end, with no transfer behind it.
    init(finishedWith chunks: [Data], failure: StratusHTTPClientError?) {
        self.capacity = max(1, chunks.reduce(0) { $0 + $1.count })
        self.resumeWriter = {}
        self.cancelTransfer = {}
        state.withLock { state in
            state.chunks = chunks
            state.buffered = chunks.reduce(0) { $0 + $1.count }
            state.finished = true
            state.failure = failure
        }
    }

    /// Offers bytes from libcurl (event-loop thread).
    func write(_ bytes: UnsafeRawBufferPointer) -> SinkVerdict {
        var handOver: CheckedContinuation<Data?, any Error>?
        let verdict = state.withLock { state -> SinkVerdict in
            if state.finished {
                return .fail(StratusHTTPClientError(.cancelled, "The reader stopped reading the response body."))
            }
            if let waiting = state.waiting {
                state.waiting = nil
                handOver = waiting
                return .accepted
            }
            if state.buffered >= capacity {
                state.writerPaused = true
                return .pause
            }
            state.chunks.append(Data(bytes))
            state.buffered += bytes.count
            return .accepted
        }
        handOver?.resume(returning: Data(bytes))
        return verdict
    }

    /// The bytes the queue holds, read or not: for tests of what a slow reader costs.
    var bytesHeld: Int {
        state.withLock { state in state.chunks.reduce(0) { $0 + $1.count } }
    }

    /// Ends the body, with a failure or cleanly (event-loop thread).
    func finish(failure: StratusHTTPClientError?) {
        let waiting = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard !state.finished else { return nil }
            state.finished = true
            state.failure = failure
            defer { state.waiting = nil }
            return state.waiting
        }
        if let failure { waiting?.resume(throwing: failure) } else { waiting?.resume(returning: nil) }
    }

    /// The next chunk for the reader.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                var wakeWriter = false
                let immediate = state.withLock { state -> Result<Data?, StratusHTTPClientError>? in
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        // The reader owns the chunk now: the queue must not keep it alive, or a
                        // reader that never quite catches up holds every byte of the body.
                        state.chunks[state.head] = Data()
                        state.head += 1
                        state.buffered -= chunk.count
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        } else if state.head >= 256 {
                            state.chunks.removeFirst(state.head)
                            state.head = 0
                        }
                        if state.writerPaused, state.buffered <= capacity / 2 {
                            state.writerPaused = false
                            wakeWriter = true
                        }
                        return .success(chunk)
                    }
                    if state.finished {
                        return state.failure.map { .failure($0) } ?? .success(nil)
                    }
                    state.waiting = continuation
                    if state.writerPaused {
                        state.writerPaused = false
                        wakeWriter = true
                    }
                    return nil
                }
                if wakeWriter { resumeWriter() }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            cancelTransfer()
        }
    }

    /// The reader dropped the stream: stop the transfer if it is still running.
    func readerLeft() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if wasRunning { cancelTransfer() }
    }
}

/// Passes a streamed body to a ``StreamBuffer`` and the head to the caller waiting for it.
final class StreamSink: ResponseSink {
    let buffer: StreamBuffer
    private var deliverHead: ((Result<HTTPStreamingResponse, StratusHTTPClientError>) -> Void)?
    private(set) var isContent = false

    init(buffer: StreamBuffer, deliverHead: @escaping (Result<HTTPStreamingResponse, StratusHTTPClientError>) -> Void) {
        self.buffer = buffer
        self.deliverHead = deliverHead
    }

    func headersComplete(status: Int, headers: StratusHTTPHeaders) -> StratusHTTPClientError? {
        isContent = (200..<300).contains(status)
        let deliver = deliverHead
        deliverHead = nil
        deliver?(
            .success(HTTPStreamingResponse(status: status, headers: headers, body: HTTPBodyStream(buffer: buffer))))
        return nil
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> SinkVerdict { buffer.write(bytes) }

    func finish() -> SinkOutput {
        buffer.finish(failure: nil)
        return SinkOutput()
    }

    /// Fails the head if it was not delivered yet, else the body.
    func fail(_ error: StratusHTTPClientError) {
        if let deliver = deliverHead {
            deliverHead = nil
            deliver(.failure(error))
        }
        buffer.finish(failure: error)
    }

    func abandon() {}
}
