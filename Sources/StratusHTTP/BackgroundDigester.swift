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

    /// The digests, touched only by blocks running on `queue` (checked on every access).
    private let digests: QueueConfined<[any IncrementalDigest]>
    /// A serial queue: one block at a time, in the order they were taken.
    private let queue: DispatchQueue
    private let state = Mutex(State())
    /// The block being filled by ``take(_:)``; it is moved out of the lock to be filled, so the
    /// event-loop thread appends each piece without holding the lock or copying the block.
    private let filling: Mutex<[UInt8]>

    /// Takes over digests that have seen every byte of the content before this body.
    /// - Parameters:
    ///   - digests: The digests, which from now on only the hashing thread touches.
    ///   - capacity: How many bytes may wait to be hashed before ``hasRoom(orWake:)`` says no.
    ///   - blockSize: How many bytes are handed over at a time.
    init(_ digests: [any IncrementalDigest], capacity: Int = 16 * 1024 * 1024, blockSize: Int = 1024 * 1024) {
        let queue = DispatchQueue(label: "stratus.http.digest")
        self.queue = queue
        self.digests = QueueConfined(digests, on: queue)
        self.capacity = capacity
        self.blockSize = blockSize
        var block: [UInt8] = []
        block.reserveCapacity(blockSize)
        self.filling = Mutex(block)
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

    /// Copies a piece of the body (already written by the sink) for hashing. Pieces are taken
    /// one at a time, in order (the event-loop thread calls it).
    func take(_ bytes: UnsafeRawBufferPointer) {
        var block = takeFillingBlock()
        block.append(contentsOf: bytes)
        if block.count >= blockSize {
            submit(block)
            block = []
            block.reserveCapacity(blockSize)
        }
        filling.withLock { [block] in $0 = block }
    }

    /// Hands over the last partial block; call it once, after the last ``take(_:)``.
    func finish() {
        let block = takeFillingBlock()
        if !block.isEmpty { submit(block) }
    }

    /// The block being filled, moved out of `filling` (which is left empty), so that appending
    /// to it copies nothing.
    private func takeFillingBlock() -> [UInt8] {
        filling.withLock { filling in
            defer { filling = [] }
            return filling
        }
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

    /// Hands a full (or the last) block to the hashing thread.
    private func submit(_ block: [UInt8]) {
        state.withLock { $0.queuedBytes += block.count }
        queue.async { [self] in
            block.withUnsafeBytes { bytes in
                for digest in digests.value { digest.update(bytes) }
            }
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                state.queuedBytes -= block.count
                guard state.queuedBytes <= capacity / 2 else { return nil }
                defer { state.wake = nil }
                return state.wake
            }
            wake?()
        }
    }
}

/// A value touched only on one serial `DispatchQueue`, which every access checks at run time
/// (`dispatchPrecondition`), as NIO's `NIOLoopBound` checks its event loop: a use on another
/// thread stops the process instead of racing.
///
/// `@unchecked Sendable`: no lock; `queue` makes it true. After `init` the value is read and
/// written only by blocks running on `queue` (checked on every access), which is serial, so
/// they run one after another, each seeing what the ones before did; `init` stores the value
/// before any block that reads it is submitted.
final class QueueConfined<Value>: @unchecked Sendable {
    /// The queue whose blocks alone touch the value.
    let queue: DispatchQueue
    private var storage: Value

    /// Confines a value to a serial queue.
    /// - Parameters:
    ///   - value: The value; from now on only `queue`'s blocks touch it.
    ///   - queue: A serial queue.
    init(_ value: Value, on queue: DispatchQueue) {
        self.queue = queue
        self.storage = value
    }

    /// The value; read and written only on ``queue`` (anywhere else it stops the process).
    var value: Value {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return storage
        }
        set {
            dispatchPrecondition(condition: .onQueue(queue))
            storage = newValue
        }
    }
}
