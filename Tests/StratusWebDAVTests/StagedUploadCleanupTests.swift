import Foundation
import Hummingbird
import MockSupport
import Stratus
import Synchronization
import Testing

@testable import StratusWebDAV

/// The clean-ups of the staged upload (issue 28): the sweep of abandoned temporary uploads and
/// the deletion of a failed write's own temporary upload are done by the time the write returns,
/// with no work left running after it.
@Suite struct StagedUploadCleanupTests {
    /// A temporary upload made long ago, by a writer that died.
    static let abandoned = "1000-00000000000000aa.upload"
    /// A temporary upload of a writer still at work.
    static let recent = "\(Int64(Date().timeIntervalSince1970))-00000000000000bb.upload"

    /// A generic server whose uploads folder holds ``abandoned`` and ``recent``, and which
    /// forgets every temporary upload as soon as it is written (so the write fails before its
    /// MOVE).
    static func forgetfulServer() -> ScriptedWebDAVServer {
        ScriptedWebDAVServer { request in
            var path = request.path
            while path.hasSuffix("/") { path.removeLast() }
            switch (request.method, path) {
            case ("MKCOL", _): return ScriptedWebDAVServer.status(201)
            case ("PROPFIND", "/dav/.stratus/uploads"):
                return ScriptedWebDAVServer.multistatus([
                    .init(href: "/dav/.stratus/uploads/", isFolder: true, etag: "u"),
                    .init(href: "/dav/.stratus/uploads/\(abandoned)", isFolder: false, etag: "a", size: 1),
                    .init(href: "/dav/.stratus/uploads/\(recent)", isFolder: false, etag: "b", size: 1),
                ])
            case ("PUT", _): return ScriptedWebDAVServer.status(201)
            case ("DELETE", _):
                // Slow, so that a DELETE left running after the write returned is not yet in the
                // request log when the test reads it (the answer cannot await, so it blocks).
                Thread.sleep(forTimeInterval: 0.1)
                return ScriptedWebDAVServer.status(204)
            default: return ScriptedWebDAVServer.status(404)
            }
        }
    }

    @Test func aFailedWriteHasSweptAndDeletedItsTemporaryUploadWhenItReturns() async throws {
        let server = Self.forgetfulServer()
        let (error, puts, deletes) = try await server.run { root in
            let service = try ScriptedWebDAVServer.service(root)
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service.upload(
                    from: .bytes(Data("new".utf8)), to: try RemotePath("save.bin"), options: UploadOptions())
            }
            // Read as soon as the write returned, the server still running: nothing runs after it.
            return (
                error, server.requestLog.entries { $0.method == "PUT" }.map(\.path),
                server.requestLog.entries { $0.method == "DELETE" }.map(\.path)
            )
        }
        #expect(error?.code == .conflict, "\(String(describing: error))")
        #expect(puts.count == 1)
        #expect(deletes.contains("/dav/.stratus/uploads/\(Self.abandoned)"))
        #expect(!deletes.contains("/dav/.stratus/uploads/\(Self.recent)"))
        #expect(puts.allSatisfy { deletes.contains($0) }, "PUT \(puts), DELETE \(deletes)")
        #expect(deletes.count == 2)
    }

    @Test func aCancelledWriteStillDeletesItsTemporaryUpload() async throws {
        // The server cancels the write as it answers its PUT, so the cancellation meets the
        // write once its temporary upload exists.
        let write = WriteTask()
        let server = ScriptedWebDAVServer { request in
            if request.method == "PUT" { write.cancel() }
            return Self.forgetfulServer().answer(request)
        }
        let (result, puts, deletes) = try await server.run { root in
            let service = try ScriptedWebDAVServer.service(root)
            let (started, start) = AsyncStream<Void>.makeStream()
            let task = Task {
                // Not before the task is known to the server.
                for await _ in started { break }
                _ = try await service.upload(
                    from: .bytes(Data("new".utf8)), to: try RemotePath("save.bin"), options: UploadOptions())
            }
            write.set(task)
            start.finish()
            let result = await task.result
            return (
                result, server.requestLog.entries { $0.method == "PUT" }.map(\.path),
                server.requestLog.entries { $0.method == "DELETE" }.map(\.path)
            )
        }
        let error = #expect(throws: (any Error).self) { try result.get() }
        #expect(
            error is CancellationError || (error as? ServiceError)?.code == .cancelled, "\(String(describing: error))")
        #expect(puts.count == 1)
        #expect(puts.allSatisfy { deletes.contains($0) }, "PUT \(puts), DELETE \(deletes)")
    }
}

/// The write a scripted server cancels.
private final class WriteTask: Sendable {
    private let task = Mutex<Task<Void, any Error>?>(nil)

    /// Sets the write.
    func set(_ task: Task<Void, any Error>) {
        self.task.withLock { $0 = task }
    }

    /// Cancels the write.
    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
