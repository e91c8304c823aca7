import Foundation
import Testing

@testable import StratusCLI

@Suite struct ProgressBarTests {
    /// `script` runs the command on a pseudo-terminal, so standard error is a terminal.
    static let script = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: script != nil, "needs util-linux `script` for a pseudo-terminal"))
    func transfersDrawAProgressBarOnATerminal() async throws {
        try await LocalFileCommandTests.withLocalRemote { sandbox in
            let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = sandbox.path("big.bin")
            try content.write(to: file)
            let stratus = try Executables.url(of: "stratus")
            let command = "'\(stratus.path)' put '\(file.path)' s:big.bin"
            let process = try RunningProcess(
                URL(filePath: try #require(Self.script)), ["-qec", command, "/dev/null"],
                environment: sandbox.processEnvironment([:]))
            let result = try await process.finish()
            #expect(result.status == 0, "\(result.stdout)")
            #expect(result.stdout.contains("put big.bin"))
            #expect(result.stdout.contains("100%"))
            #expect(result.stdout.contains("/s"))
            #expect(result.stdout.contains("Uploaded big.bin"))
        }
    }

    @Test func timeLeftForAHugeAnnouncedLengthDoesNotTrap() {
        // A server announcing nearly Int64.max bytes, a slow start: the estimate is too long to
        // show, and converting it to whole seconds trapped.
        #expect(ProgressBar.timeLeft(total: Int64.max, completed: 10, rate: 0.5) == ">99:00:00")
        #expect(ProgressBar.timeLeft(total: Int64.max, completed: Int64.min, rate: 1) == ">99:00:00")
        #expect(ProgressBar.timeLeft(total: 3_000, completed: 1_000, rate: 1_000) == "0:02")
        #expect(ProgressBar.timeLeft(total: 7_200, completed: 0, rate: 1) == "2:00:00")
        #expect(ProgressBar.timeLeft(total: 100, completed: 100, rate: 1) == nil)
        #expect(ProgressBar.timeLeft(total: nil, completed: 0, rate: 1) == nil)
        #expect(ProgressBar.timeLeft(total: 100, completed: 0, rate: .infinity) == nil)
    }
}
