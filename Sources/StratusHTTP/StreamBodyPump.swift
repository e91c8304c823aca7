import Foundation
import Synchronization

/// Moves chunks from a caller's async stream to libcurl's read callback one at a time: the
/// producer is asked for the next chunk only after the previous one was copied out.
final class StreamBodyPump: Sendable {
    private struct State {
        var pending: Data?
        var offset = 0
        var finished = false
        var failure: StratusHTTPClientError?
        var producerWaiting: CheckedContinuation<Void, Never>?
        var readerPaused = false
        var task: Task<Void, Never>?
    }

    private let chunks: AsyncThrowingStream<Data, any Error>
    private let state = Mutex(State())

    init(_ chunks: AsyncThrowingStream<Data, any Error>) {
        self.chunks = chunks
    }

    /// Starts pulling chunks; `wake` is called when the paused reader can go on.
    func start(wake: @escaping @Sendable () -> Void) {
        let task = Task { [chunks] in
            do {
                for try await chunk in chunks where !chunk.isEmpty {
                    if Task.isCancelled { break }
                    await self.offer(chunk, wake: wake)
                }
                self.end(failure: nil, wake: wake)
            } catch {
                let failure = StratusHTTPClientError(
                    .bodyStreamFailed, "The request body stream failed.", underlying: SendableDescription(error))
                self.end(failure: failure, wake: wake)
            }
        }
        state.withLock { $0.task = task }
    }

    private func offer(_ chunk: Data, wake: @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            let shouldWake = state.withLock { state -> Bool in
                if state.finished {
                    continuation.resume()
                    return false
                }
                state.pending = chunk
                state.offset = 0
                state.producerWaiting = continuation
                defer { state.readerPaused = false }
                return state.readerPaused
            }
            if shouldWake { wake() }
        }
    }

    private func end(failure: StratusHTTPClientError?, wake: @Sendable () -> Void) {
        let shouldWake = state.withLock { state -> Bool in
            state.finished = true
            if state.failure == nil { state.failure = failure }
            defer { state.readerPaused = false }
            return state.readerPaused
        }
        if shouldWake { wake() }
    }

    /// Copies pending bytes for libcurl (event-loop thread).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadVerdict {
        var resumeProducer: CheckedContinuation<Void, Never>?
        let verdict = state.withLock { state -> ReadVerdict in
            if let pending = state.pending {
                let count = min(buffer.count, pending.count - state.offset)
                pending.withUnsafeBytes { source in
                    if let from = source.baseAddress, let to = buffer.baseAddress {
                        to.copyMemory(from: from + state.offset, byteCount: count)
                    }
                }
                state.offset += count
                if state.offset >= pending.count {
                    state.pending = nil
                    resumeProducer = state.producerWaiting
                    state.producerWaiting = nil
                }
                return .bytes(count)
            }
            if let failure = state.failure { return .fail(failure) }
            if state.finished { return .bytes(0) }
            state.readerPaused = true
            return .pause
        }
        resumeProducer?.resume()
        return verdict
    }

    /// Stops the producer and releases a waiting one.
    func stop() {
        let (task, waiting) = state.withLock { state in
            state.finished = true
            defer { state.producerWaiting = nil }
            return (state.task, state.producerWaiting)
        }
        task?.cancel()
        waiting?.resume()
    }
}

/// An error's description, kept as a `Sendable` cause.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { self.description = String(describing: error) }
}
