import Dispatch
import Stratus
import StratusDigest
import Synchronization

/// Hashes a large response body on a thread of its own, so the event-loop thread only copies
/// each piece into a block and goes back to receiving: on a machine with a free core a download
/// then runs at the speed of the network or the disk, not of the slowest digest (MD5 runs at
/// about 760 MB/s, below what loopback and a page cache take).
///
/// The event loop asks ``hasRoom(orWake:)`` before it lets a piece be written (a transfer whose
/// digests fall ``capacity`` bytes behind pauses, and the digester wakes it once half of that was
/// hashed), then hands the written piece to ``take(_:)``. ``finish()`` hands over the last
/// partial block; ``digests()`` waits, without blocking a thread, for the hex digests.
final class BackgroundDigester: Sendable {
    /// How many bytes may wait to be hashed before the transfer pauses.
    let capacity: Int
    /// The size of the blocks handed to the hashing thread.
    let blockSize: Int

    private struct State {
        /// Bytes handed to the queue and not yet hashed.
        var queuedBytes = 0
        /// Called once the queue has room again (a paused transfer waits for it).
        var wake: (@Sendable () -> Void)?
    }

    /// The digests, touched only by blocks running on `queue`.
    private let digests: QueueConfined<[any IncrementalDigest]>
    /// A serial queue: one block at a time, in the order they were taken.
    private let queue = DispatchQueue(label: "stratus.http.digest")
    private let state = Mutex(State())
    /// The block being filled; touched only on the event-loop thread until ``finish()``.
    private let filling: QueueConfined<[UInt8]>

    /// Takes over digests that have seen every byte of the content before this body.
    /// - Parameters:
    ///   - digests: The digests, which from now on only the hashing thread touches.
    ///   - capacity: How many bytes may wait to be hashed before ``hasRoom(orWake:)`` says no.
    ///   - blockSize: How many bytes are handed over at a time.
    init(_ digests: [any IncrementalDigest], capacity: Int = 16 * 1024 * 1024, blockSize: Int = 1024 * 1024) {
        self.digests = QueueConfined(digests)
        self.capacity = capacity
        self.blockSize = blockSize
        self.filling = QueueConfined([])
        filling.value.reserveCapacity(blockSize)
    }

    /// Whether the next piece may be written now. When it may not, `wake` is called once the
    /// hashing thread has caught up to half the capacity.
    func hasRoom(orWake wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.queuedBytes >= capacity else { return true }
            state.wake = wake
            return false
        }
    }

    /// Copies a piece of the body (already written by the sink) for hashing.
    func take(_ bytes: UnsafeRawBufferPointer) {
        filling.value.append(contentsOf: bytes)
        if filling.value.count >= blockSize { submitFillingBlock() }
    }

    /// Hands over the last partial block; call it once, after the last ``take(_:)``.
    func finish() {
        if !filling.value.isEmpty { submitFillingBlock() }
    }

    /// The digests in lowercase hex, once every block handed over was hashed.
    func digests() async -> [HashAlgorithm: String] {
        await withCheckedContinuation { continuation in
            queue.async { [digests] in
                var result: [HashAlgorithm: String] = [:]
                for digest in digests.value { result[digest.algorithm] = digest.finalizeHex() }
                continuation.resume(returning: result)
            }
        }
    }

    private func submitFillingBlock() {
        let block = QueueConfined(filling.value)
        filling.value = []
        filling.value.reserveCapacity(blockSize)
        state.withLock { $0.queuedBytes += block.value.count }
        queue.async { [self] in
            block.value.withUnsafeBytes { bytes in
                for digest in digests.value { digest.update(bytes) }
            }
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                state.queuedBytes -= block.value.count
                guard state.queuedBytes <= capacity / 2 else { return nil }
                defer { state.wake = nil }
                return state.wake
            }
            wake?()
        }
    }
}

/// A value that one thread at a time owns, handed from one to the next by a happens-before edge
/// (here: `DispatchQueue.async`, whose blocks on one serial queue run one after another).
///
/// `@unchecked Sendable`: no lock; the serial `DispatchQueue` in ``BackgroundDigester`` (for the
/// digests and blocks) and the event-loop thread (for the block being filled, until
/// ``BackgroundDigester/finish()`` hands it over) are the only places that touch the value.
private final class QueueConfined<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
