import Foundation
import StratusFileSystem
import StratusTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `FileLock`: exclusive between open files in one process (as between processes), released on
/// request, and a timed wait that gives up.
@Suite struct FileLockTests {
    @Test func aHeldLockExcludesOthersUntilReleased() async throws {
        try await withTemporaryFolder(prefix: "stratus-fs") { url in
            let folder = url.path
            let path = folder + "/lock"
            let held = try FileLock.acquire(path)
            let other = try FileDescriptor.open(path, O_RDWR)
            #expect(try FileLock.tryAcquire(other) == nil)
            let waited = try await FileLock.acquire(path, timeout: .milliseconds(60))
            #expect(waited == nil)
            held.release()
            let taken = try #require(try FileLock.tryAcquire(other))
            taken.release()
        }
    }

    @Test func withLockReleasesWhenTheBodyThrows() async throws {
        struct Failure: Error {}
        try await withTemporaryFolder(prefix: "stratus-fs") { url in
            let folder = url.path
            let path = folder + "/lock"
            #expect(throws: Failure.self) { try FileLock.withLock(path) { throw Failure() } }
            let lock = try #require(try await FileLock.acquire(path, timeout: .zero))
            lock.release()
        }
    }

    @Test func aWaitEndsWhenTheTaskIsCancelled() async throws {
        try await withTemporaryFolder(prefix: "stratus-fs") { url in
            let folder = url.path
            let path = folder + "/lock"
            let held = try FileLock.acquire(path)
            defer { held.release() }
            let waiter = Task { try await FileLock.acquire(path, timeout: .seconds(30)) }
            try await Task.sleep(for: .milliseconds(30))
            waiter.cancel()
            await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        }
    }
}
