import Dispatch
import Foundation
import Stratus
import StratusDigest
import Synchronization
import Testing

@testable import StratusHTTP

/// ``BackgroundDigester``: a large body's digests computed on a thread of their own, equal to
/// the digests of the whole content, with a transfer paused while they fall behind.
@Suite struct BackgroundDigesterTests {
    /// A digest that waits at every block until the test opens its gate, so the digester falls
    /// behind on purpose.
    private final class GatedDigest: IncrementalDigest, @unchecked Sendable {
        // `@unchecked Sendable`: `inner` is touched only by the digester's serial queue; the
        // semaphore is thread-safe.
        let gate = DispatchSemaphore(value: 0)
        let inner = SHA256Digest()
        var algorithm: HashAlgorithm { .sha256 }
        func update(_ bytes: UnsafeRawBufferPointer) {
            gate.wait()
            gate.signal()
            inner.update(bytes)
        }
        func finalize() -> [UInt8] { inner.finalize() }
    }

    @Test func digestsEqualThoseOfTheWholeContentIncludingResumedBytes() async {
        let content = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let resumedLength = 250_000
        let sha256 = SHA256Digest()
        let md5 = MD5Digest()
        sha256.update(content.prefix(resumedLength))
        md5.update(content.prefix(resumedLength))
        let digester = BackgroundDigester([sha256, md5], capacity: 256 * 1024, blockSize: 64 * 1024)
        var offset = resumedLength
        while offset < content.count {
            let end = min(content.count, offset + 10_007)
            // Waits like a paused transfer whenever the queue is full.
            while !digester.hasRoom(orWake: {}) { await Task.yield() }
            content[offset..<end].withUnsafeBytes { digester.take($0) }
            offset = end
        }
        digester.finish()
        let digests = await digester.digests()
        #expect(digests[.sha256] == Hex.encode(Digest.sha256(content)))
        #expect(digests[.md5] == Hex.encode(Digest.md5(content)))
    }

    @Test func aDigesterThatFallsBehindRefusesMoreAndWakesOnceItCaughtUp() async {
        let gated = GatedDigest()
        let digester = BackgroundDigester([gated], capacity: 64 * 1024, blockSize: 16 * 1024)
        let piece = Data(repeating: 7, count: 16 * 1024)
        var taken = Data()
        // With the gate closed nothing is hashed: four blocks fill the capacity.
        for _ in 0..<4 {
            let room = digester.hasRoom(orWake: {})
            #expect(room)
            piece.withUnsafeBytes { digester.take($0) }
            taken += piece
        }
        let woken = Mutex(0)
        let (wakes, wakeContinuation) = AsyncStream.makeStream(of: Void.self)
        let roomWhenFull = digester.hasRoom(orWake: {
            woken.withLock { $0 += 1 }
            wakeContinuation.yield()
        })
        #expect(!roomWhenFull)
        #expect(woken.withLock { $0 } == 0)
        gated.gate.signal()
        var iterator = wakes.makeAsyncIterator()
        await iterator.next()
        let roomAfterWake = digester.hasRoom(orWake: {})
        #expect(roomAfterWake)
        digester.finish()
        let digests = await digester.digests()
        #expect(woken.withLock { $0 } == 1)
        #expect(digests[.sha256] == Hex.encode(Digest.sha256(taken)))
    }
}
