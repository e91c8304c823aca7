import Dispatch
import Stratus
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Tells waiters when a local store's change journal is written, by this process or any other:
/// Linux inotify, with one inotify instance for the whole process, one watch per watched state
/// folder (shared by every waiter and every ``LocalService`` on that root), and one Dispatch
/// read source that reads the events and fans them out. Nothing runs while nothing happens.
///
/// The watch is on the state folder, not on the journal file, so a journal renamed into place
/// (a new journal replacing the old one) wakes waiters too. Only events naming the journal
/// count; the folder's other entries (the lock, the records and versions folders) change
/// nothing. A queue overflow wakes every waiter, to re-check.
///
/// A watch is added when a folder's first waiter subscribes and removed when its last one
/// leaves. Where inotify is missing or exhausted (`fs.inotify.max_user_instances`,
/// `max_user_watches`), ``subscribe(folder:signal:)`` throws and the caller polls instead.
final class JournalWatcher: Sendable {
    /// The watcher every local service uses.
    static let shared = JournalWatcher()

    /// One waiter's registration, to pass back to ``unsubscribe(_:)``.
    struct Subscription: Sendable, Hashable {
        fileprivate let watch: Int32
        fileprivate let id: UInt64
    }

    /// Why a subscription could not be made.
    struct Unavailable: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        let description: String
    }

    private struct State {
        var descriptor: Int32 = -1
        var source: (any DispatchSourceRead)?
        var waiters: [Int32: [UInt64: WakeSignal]] = [:]
        var nextID: UInt64 = 0
    }

    #if canImport(Glibc)
        private static let watchMask = UInt32(
            IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
                | IN_ONLYDIR)
    #endif

    private let isEnabled: Bool
    private let journalName: [UInt8]
    private let queue = DispatchQueue(label: "stratus.local.journal-watcher")
    private let state = Mutex(State())

    /// A watcher.
    /// - Parameter isEnabled: `false` makes every subscription fail, as when inotify is
    ///   exhausted (for tests of the polling fallback).
    init(isEnabled: Bool = true) {
        self.isEnabled = isEnabled
        self.journalName = Array(StoreLayout.journalFileName.utf8)
    }

    deinit {
        // The shared watcher lives as long as the process; one of a test's own closes its
        // inotify descriptor (through the read source's cancel handler) when it goes.
        state.withLock { $0.source?.cancel() }
    }

    /// Registers a waiter for writes to the journal in a state folder.
    /// - Parameters:
    ///   - folder: The store's state folder (`.stratus`).
    ///   - signal: Raised with ``WakeSignal/Reason/changed`` when the journal is written,
    ///     ``WakeSignal/Reason/watchLost`` when the folder goes away.
    /// - Returns: The registration.
    /// - Throws: ``Unavailable`` when inotify cannot watch the folder.
    func subscribe(folder: String, signal: WakeSignal) throws -> Subscription {
        guard isEnabled else { throw Unavailable(description: "change notifications are turned off") }
        #if canImport(Glibc)
            return try state.withLock { state in
                if state.descriptor < 0 {
                    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
                    guard descriptor >= 0 else {
                        throw Unavailable(description: "inotify_init1 failed: \(Self.reason(errno))")
                    }
                    let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
                    source.setEventHandler { [weak self] in self?.readEvents(from: descriptor) }
                    source.setCancelHandler { _ = close(descriptor) }
                    source.resume()
                    state.descriptor = descriptor
                    state.source = source
                }
                let watch = folder.withCString { inotify_add_watch(state.descriptor, $0, Self.watchMask) }
                guard watch >= 0 else {
                    throw Unavailable(description: "inotify_add_watch on \(folder) failed: \(Self.reason(errno))")
                }
                state.nextID += 1
                state.waiters[watch, default: [:]][state.nextID] = signal
                return Subscription(watch: watch, id: state.nextID)
            }
        #else
            throw Unavailable(description: "inotify is Linux only")
        #endif
    }

    /// Removes a waiter; the folder's watch goes with its last waiter.
    func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            guard var waiters = state.waiters[subscription.watch] else { return }
            waiters[subscription.id] = nil
            if waiters.isEmpty {
                state.waiters[subscription.watch] = nil
                #if canImport(Glibc)
                    _ = inotify_rm_watch(state.descriptor, subscription.watch)
                #endif
            } else {
                state.waiters[subscription.watch] = waiters
            }
        }
    }

    /// How many folders are watched now (for tests).
    var watchCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// Reads every pending event and raises the waiters' signals; runs on the watcher's queue.
    private func readEvents(from descriptor: Int32) {
        #if canImport(Glibc)
            var changed: Set<Int32> = []
            var lost: Set<Int32> = []
            var overflowed = false
            let capacity = 64 * 1024
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
            defer { buffer.deallocate() }
            while true {
                let count = read(descriptor, buffer.baseAddress, capacity)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + header
                    let nameEnd = min(nameStart + length, count)
                    let name = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        overflowed = true
                    } else if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        lost.insert(watch)
                    } else if name.elementsEqual(journalName) {
                        changed.insert(watch)
                    }
                    offset = nameStart + length
                }
            }
            guard overflowed || !changed.isEmpty || !lost.isEmpty else { return }
            let raised = state.withLock { state -> [(WakeSignal, WakeSignal.Reason)] in
                var raised: [(WakeSignal, WakeSignal.Reason)] = []
                for (watch, waiters) in state.waiters {
                    if lost.contains(watch) {
                        raised += waiters.values.map { ($0, .watchLost) }
                    } else if overflowed || changed.contains(watch) {
                        raised += waiters.values.map { ($0, .changed) }
                    }
                }
                for watch in lost where state.waiters[watch] != nil {
                    // A folder moved away keeps its watch; one deleted has lost it already
                    // (then this fails harmlessly).
                    state.waiters[watch] = nil
                    _ = inotify_rm_watch(state.descriptor, watch)
                }
                return raised
            }
            for (signal, reason) in raised {
                signal.raise(reason)
            }
        #endif
    }

    private static func reason(_ number: Int32) -> String {
        String(cString: strerror(number))
    }
}
