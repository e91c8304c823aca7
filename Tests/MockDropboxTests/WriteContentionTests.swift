import Foundation
import MockDropbox
import MockProviders
import StratusHTTP
import Testing

/// Dropbox's namespace write serialisation: too many overlapping commits, or a second batch,
/// are refused with 429 `too_many_write_operations`. Writes are kept in flight with a
/// ``WriteGate``, so no test depends on timing.
@Suite("Write contention", .timeLimit(.minutes(2)))
struct WriteContentionTests {
    /// Checks a 429 `too_many_write_operations` answer: status, `RateLimitError` body and header.
    static func expectRefusal(_ response: StratusHTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        #expect(response.status == 429, sourceLocation: sourceLocation)
        #expect(response.headers["Retry-After"] == "1", sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "application/json", sourceLocation: sourceLocation)
        let body = try DropboxHarness.object(response)
        #expect(body["error_summary"] as? String == "too_many_write_operations/...", sourceLocation: sourceLocation)
        let error = try #require(body["error"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(error["retry_after"] as? Int == 1, sourceLocation: sourceLocation)
        let reason = try #require(error["reason"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(reason[".tag"] as? String == "too_many_write_operations", sourceLocation: sourceLocation)
    }

    @Test("A third overlapping commit is refused at once with 429, a RateLimitError body and Retry-After: 1")
    func thirdOverlappingCommitIsRefused() async throws {
        let gate = WriteGate()
        try await DropboxMockProvider(options: .init(writeContention: gate.settings())).withSession { harness in
            defer { gate.open() }
            // One call first: until its first answer, the client waits to learn whether the
            // connection multiplexes before it opens a second one, and that answer would wait
            // at the gate.
            #expect(try await harness.rpc("list_folder", ["path": ""]).status == 200)
            let first = Task { try await harness.contentCall("upload", ["path": "/a.txt"], data: Data("a".utf8)) }
            let second = Task { try await harness.contentCall("upload", ["path": "/b.txt"], data: Data("b".utf8)) }
            await gate.waitForArrivals(2)
            #expect(harness.server.writes.writesInFlight == 2)

            let third = try await harness.contentCall("upload", ["path": "/c.txt"], data: Data("c".utf8))
            try Self.expectRefusal(third)
            #expect(harness.server.writes.refusals == 1)
            let missing = try await harness.rpc("get_metadata", ["path": "/c.txt"])
            #expect(missing.status == 409)

            gate.open()
            #expect(try await first.value.status == 200)
            #expect(try await second.value.status == 200)
            #expect(harness.server.writes.writesInFlight == 0)
            let again = try await harness.contentCall("upload", ["path": "/c.txt"], data: Data("c".utf8))
            #expect(again.status == 200)
        }
    }

    @Test("A refused upload_session/finish leaves its session as it was: the same request succeeds later")
    func refusedFinishCanBeSentAgain() async throws {
        let gate = WriteGate()
        try await DropboxMockProvider(options: .init(writeContention: gate.settings(maximumConcurrentWrites: 1)))
            .withSession {
                harness in
                defer { gate.open() }
                let head = Data(repeating: 0x61, count: 3000)
                let tail = Data("tail".utf8)
                let started = try await harness.contentCall("upload_session/start", [:], data: head)
                let id = try #require(try DropboxHarness.object(started)["session_id"] as? String)
                let busy = Task { try await harness.contentCall("upload", ["path": "/busy.txt"], data: Data("x".utf8)) }
                await gate.waitForArrivals(1)

                let finish: [String: Any] = [
                    "cursor": ["session_id": id, "offset": head.count], "commit": ["path": "/whole.bin"],
                    "content_hash": DropboxHarness.contentHash(tail),
                ]
                try Self.expectRefusal(try await harness.contentCall("upload_session/finish", finish, data: tail))
                gate.open()
                #expect(try await busy.value.status == 200)

                let finished = try await harness.contentCall("upload_session/finish", finish, data: tail)
                #expect(finished.status == 200, "\(String(decoding: finished.body, as: UTF8.self))")
                let metadata = try DropboxHarness.object(finished)
                #expect(metadata["size"] as? Int == head.count + tail.count)
                #expect(metadata["content_hash"] as? String == DropboxHarness.contentHash(head + tail))
                #expect(try await harness.contentCall("download", ["path": "/whole.bin"]).body == head + tail)
            }
    }

    @Test("delete_v2 and restore take a write slot too")
    func deleteAndRestoreContend() async throws {
        let gate = WriteGate(open: true)
        try await DropboxMockProvider(options: .init(writeContention: gate.settings(maximumConcurrentWrites: 1)))
            .withSession {
                harness in
                defer { gate.open() }
                let old = try await harness.upload("/file.txt", "one")
                try await harness.upload("/file.txt", "two", mode: "overwrite")
                let rev = try #require(old["rev"] as? String)
                gate.close()
                let before = gate.arrivals.count
                let busy = Task {
                    try await harness.contentCall("upload", ["path": "/other.txt"], data: Data("x".utf8))
                }
                await gate.waitForArrivals(before + 1)

                try Self.expectRefusal(try await harness.rpc("delete_v2", ["path": "/file.txt"]))
                try Self.expectRefusal(try await harness.rpc("restore", ["path": "/file.txt", "rev": rev]))
                gate.open()
                #expect(try await busy.value.status == 200)
                #expect(try await harness.rpc("restore", ["path": "/file.txt", "rev": rev]).status == 200)
                #expect(try await harness.rpc("delete_v2", ["path": "/file.txt"]).status == 200)
            }
    }

    @Test("Batches run one at a time, and a batch in flight counts as a write towards the limit")
    func batchesRunOneAtATime() async throws {
        let gate = WriteGate(open: true)
        try await DropboxMockProvider(options: .init(writeContention: gate.settings(maximumConcurrentWrites: 3)))
            .withSession {
                harness in
                defer { gate.open() }
                let sessions = [
                    try await harness.closedSession(Data("one".utf8)),
                    try await harness.closedSession(Data("two".utf8)),
                ]
                gate.close()
                let batch = Task {
                    try await harness.rpc(
                        "upload_session/finish_batch_v2", ["entries": [harness.entry(sessions[0], 3, path: "/one.txt")]]
                    )
                }
                await gate.waitForArrivals(1)
                #expect(gate.arrivals == [.batch(entries: 1)])
                #expect(harness.server.writes.isBatchInFlight)

                let second = try await harness.rpc(
                    "upload_session/finish_batch_v2", ["entries": [harness.entry(sessions[1], 3, path: "/two.txt")]])
                try Self.expectRefusal(second)
                // The batch holds one slot of three: two single commits fit beside it, a third does not.
                let singles = (0..<2).map { index in
                    Task {
                        try await harness.contentCall("upload", ["path": "/single-\(index).txt"], data: Data("s".utf8))
                    }
                }
                await gate.waitForArrivals(3)
                try Self.expectRefusal(
                    try await harness.contentCall("upload", ["path": "/late.txt"], data: Data("l".utf8)))

                gate.open()
                let entries = try #require(
                    try DropboxHarness.object(try await batch.value)["entries"] as? [[String: Any]])
                #expect(entries.map { $0[".tag"] as? String } == ["success"])
                for single in singles { #expect(try await single.value.status == 200) }
                let again = try await harness.rpc(
                    "upload_session/finish_batch_v2", ["entries": [harness.entry(sessions[1], 3, path: "/two.txt")]])
                #expect(again.status == 200)
            }
    }

    @Test("An async finish_batch holds the batch slot until its job is done; check answers in_progress meanwhile")
    func asyncBatchHoldsItsSlot() async throws {
        let gate = WriteGate(open: true)
        try await DropboxMockProvider(options: .init(writeContention: gate.settings())).withSession { harness in
            defer { gate.open() }
            let first = try await harness.closedSession(Data("first".utf8))
            let second = try await harness.closedSession(Data("second".utf8))
            gate.close()
            let launched = try await harness.rpc(
                "upload_session/finish_batch", ["entries": [harness.entry(first, 5, path: "/first.txt")]])
            #expect(launched.status == 200)
            let launch = try DropboxHarness.object(launched)
            #expect(launch[".tag"] as? String == "async_job_id")
            let job = try #require(launch["async_job_id"] as? String)
            await gate.waitForArrivals(1)

            let pending = try await harness.rpc("upload_session/finish_batch/check", ["async_job_id": job])
            #expect(try DropboxHarness.object(pending)[".tag"] as? String == "in_progress")
            try Self.expectRefusal(
                try await harness.rpc(
                    "upload_session/finish_batch", ["entries": [harness.entry(second, 6, path: "/second.txt")]]))
            try Self.expectRefusal(
                try await harness.rpc(
                    "upload_session/finish_batch_v2", ["entries": [harness.entry(second, 6, path: "/second.txt")]]))

            gate.open()
            let done = try await harness.completedBatch(job)
            let entries = try #require(done["entries"] as? [[String: Any]])
            #expect(entries.first?["path_display"] as? String == "/first.txt")
            #expect(!harness.server.writes.isBatchInFlight)
        }
    }

    @Test("With contention off, writes never wait or meet a 429")
    func contentionOff() async throws {
        try await DropboxMockProvider(options: .init(writeContention: nil)).withSession { harness in
            #expect(harness.server.writes.settings == nil)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        try await harness.contentCall(
                            "upload", ["path": "/many/\(index).txt"], data: Data("\(index)".utf8)
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 16))
            #expect(harness.server.writes.refusals == 0)
            #expect(harness.server.writes.writesInFlight == 0)
        }
    }

    @Test("With the default contention, writes sent one at a time never meet a refusal")
    func oneAtATimeIsNeverRefused() async throws {
        try await DropboxMockProvider().withSession { harness in
            let settings = try #require(harness.server.writes.settings)
            #expect(settings.maximumConcurrentWrites == 2)
            #expect(settings.commitTime == .milliseconds(2))
            #expect(settings.retryAfterSeconds == 1)
            for index in 0..<10 {
                try await harness.upload("/serial/\(index).txt", "\(index)")
            }
            #expect(try await harness.rpc("delete_v2", ["path": "/serial/0.txt"]).status == 200)
            #expect(harness.server.writes.refusals == 0)
        }
    }
}
