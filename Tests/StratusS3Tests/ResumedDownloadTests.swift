import Foundation
import Logging
import Stratus
import StratusDigest
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusS3

/// Keeps the messages logged, for tests that check what the adapter did.
final class RecordingLogHandler: LogHandler, Sendable {
    private let messages = Mutex<[String]>([])
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
    }

    var logged: [String] { messages.withLock { $0 } }
}

@Suite(.enabled(if: MotoServer.shouldRun, MotoServer.skipReason))
struct ResumedDownloadTests {
    @Test("a download whose connection drops midway goes on with Range and is still verified")
    func resumesWithRange() async throws {
        let server = try await MotoServer.cuttingEndpoint()
        let handler = RecordingLogHandler()
        let service = try await MotoServer.makeService(
            bucket: MotoServer.uniqueBucket("cut"), on: server,
            logger: Logger(label: "stratus.s3.test", factory: { _ in handler })
        )
        var data = Data(count: 400 * 1024)
        for index in data.indices { data[index] = UInt8(truncatingIfNeeded: index &* 7 &+ 3) }
        let path = try RemotePath("cut-me/big.bin")
        let uploaded = try await service.upload(from: .bytes(data), to: path)

        let temporaryFolder = try TemporaryFolder(prefix: "stratus-s3")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let destination = folder.appending(path: "big.bin")
        let file = try await service.download(path, to: destination)
        #expect(file.version == uploaded.version)
        #expect(try Data(contentsOf: destination) == data)
        #expect(
            handler.logged.contains("Resuming a download"),
            "the dropped connection should have been resumed, not restarted; logged: \(handler.logged)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["big.bin"])
    }
}
