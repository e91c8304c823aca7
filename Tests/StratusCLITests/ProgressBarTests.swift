import Foundation
import Testing

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
            let process = try RunningProcess(URL(filePath: try #require(Self.script)), ["-qec", command, "/dev/null"], environment: sandbox.processEnvironment([:]))
            let result = try await process.finish()
            #expect(result.status == 0, "\(result.stdout)")
            #expect(result.stdout.contains("put big.bin"))
            #expect(result.stdout.contains("100%"))
            #expect(result.stdout.contains("/s"))
            #expect(result.stdout.contains("Uploaded big.bin"))
        }
    }
}
