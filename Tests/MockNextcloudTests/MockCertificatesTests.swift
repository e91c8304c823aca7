import Foundation
import MockSupport
import StratusTestSupport
import Synchronization
import Testing

/// Mock certificates made from async code, as the HTTPS mocks are (issue 39): `openssl` runs
/// while Swift's cooperative threads stay free for other tasks.
@Suite struct MockCertificatesTests {
    @Test func makingCertificatesLeavesTheCooperativeThreadsFree() async throws {
        // Twice as many at once as there are cooperative threads: were each to wait for openssl
        // on its thread, no other task would run until one of them was done.
        let count = 2 * max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let ticks = Ticks()
        let made = try await withTemporaryFolder(prefix: "stratus-certificates") { folder in
            try await withThrowingTaskGroup(of: MockCertificates.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let certificates = try await MockCertificates.create(in: folder.appending(path: "\(index)"))
                        ticks.noteFirstDone()
                        return certificates
                    }
                }
                let ticker = Task {
                    while !Task.isCancelled {
                        ticks.tick()
                        try? await Task.sleep(for: .milliseconds(2))
                    }
                }
                defer { ticker.cancel() }
                var made: [MockCertificates] = []
                for try await certificates in group {
                    #expect(FileManager.default.fileExists(atPath: certificates.certificate.path))
                    made.append(certificates)
                }
                return made
            }
        }
        #expect(made.count == count)
        let early = ticks.atFirstDone ?? 0
        #expect(early >= 2, "another task ran \(early) times while the first certificates were made")
    }
}

/// How often a task ran, and how often it had run when the first certificates were made.
final class Ticks: Sendable {
    private let state = Mutex<(count: Int, atFirstDone: Int?)>((0, nil))

    /// The count when ``noteFirstDone()`` was first called.
    var atFirstDone: Int? { state.withLock { $0.atFirstDone } }

    /// Counts one run.
    func tick() { state.withLock { $0.count += 1 } }

    /// Notes the count, the first time only.
    func noteFirstDone() {
        state.withLock { if $0.atFirstDone == nil { $0.atFirstDone = $0.count } }
    }
}
