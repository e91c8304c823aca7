import Foundation
import StratusDigest
import StratusHTTP
import StratusTestSupport
import Testing

@Suite struct HTTPClientBodyTests {
    @Test func getIntoMemory() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let response = try await client.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
            await client.shutdown()
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "hello")
            #expect(response.headers["content-length"] == "5")
        }
    }

    @Test func headHasNoBody() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let response = try await client.execute(
                StratusHTTPRequest(method: .head, url: base.appending(path: "hello")))
            await client.shutdown()
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
    }

    @Test(arguments: [StratusHTTPMethod.post, .put, .patch])
    func bytesBodyArrivesWhole(method: StratusHTTPMethod) async throws {
        let content = TestServer.content(300_000)
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let request = StratusHTTPRequest(
                method: method, url: base.appending(path: "echo-digest"), body: .bytes(content),
                requestDigests: [.sha256, .md5])
            let response = try await client.execute(request)
            await client.shutdown()
            let expected = Hex.encode(Digest.sha256(content))
            #expect(String(decoding: response.body, as: UTF8.self) == "\(method) 300000 \(expected) length=300000")
            #expect(response.requestBodyDigests[.sha256] == expected)
            #expect(response.requestBodyDigests[.md5] == Hex.encode(Digest.md5(content)))
        }
    }

    @Test func deleteWithoutBody() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let response = try await client.execute(
                StratusHTTPRequest(method: .delete, url: base.appending(path: "echo-digest")))
            await client.shutdown()
            #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("DELETE 0 "))
        }
    }

    @Test func fileAndFileRangeBodies() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let content = TestServer.content(1_000_000)
        let file = folder.file("upload.bin")
        try content.write(to: file)
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let whole = try await client.execute(
                StratusHTTPRequest(method: .put, url: base.appending(path: "echo-digest"), body: .file(file)))
            let part = try await client.execute(
                StratusHTTPRequest(
                    method: .put, url: base.appending(path: "echo-digest"), body: .file(file, range: 262_144..<524_288))
            )
            await client.shutdown()
            #expect(
                String(decoding: whole.body, as: UTF8.self)
                    == "PUT 1000000 \(Hex.encode(Digest.sha256(content))) length=1000000")
            let slice = content[262_144..<524_288]
            #expect(
                String(decoding: part.body, as: UTF8.self)
                    == "PUT 262144 \(Hex.encode(Digest.sha256(slice))) length=262144")
        }
    }

    @Test func missingFileBodyIsALocalFileError() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let client = try StratusHTTPClient()
        let error = await #expect(throws: StratusHTTPClientError.self) {
            try await client.execute(
                StratusHTTPRequest(
                    method: .put, url: URL(string: "http://127.0.0.1:1/x")!, body: .file(folder.file("absent"))))
        }
        await client.shutdown()
        #expect(error?.code == .localFile)
    }

    @Test func rangeBeyondTheFileIsRefused() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let file = folder.file("small.bin")
        try TestServer.content(10).write(to: file)
        let client = try StratusHTTPClient()
        let error = await #expect(throws: StratusHTTPClientError.self) {
            try await client.execute(
                StratusHTTPRequest(
                    method: .put, url: URL(string: "http://127.0.0.1:1/x")!, body: .file(file, range: 5..<20)))
        }
        await client.shutdown()
        #expect(error?.code == .invalidRequest)
    }

    @Test(arguments: [true, false])
    func streamedBody(knownLength: Bool) async throws {
        let pieces = (0..<20).map { TestServer.content(50_000, offset: $0 * 50_000) }
        let whole = pieces.reduce(into: Data()) { $0.append($1) }
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            let producer = Task {
                for piece in pieces {
                    continuation.yield(piece)
                    try await Task.sleep(for: .milliseconds(2))
                }
                continuation.finish()
            }
            let request = StratusHTTPRequest(
                method: .post, url: base.appending(path: "echo-digest"),
                body: .stream(stream, length: knownLength ? Int64(whole.count) : nil))
            let response = try await client.execute(request)
            try await producer.value
            await client.shutdown()
            let length = knownLength ? "\(whole.count)" : "none"
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == "POST \(whole.count) \(Hex.encode(Digest.sha256(whole))) length=\(length)")
        }
    }

    @Test func failingBodyStreamFailsTheRequest() async throws {
        struct ProducerFailed: Error {}
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            continuation.yield(TestServer.content(1000))
            continuation.finish(throwing: ProducerFailed())
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(
                    StratusHTTPRequest(
                        method: .post, url: base.appending(path: "echo-digest"), body: .stream(stream, length: nil)))
            }
            await client.shutdown()
            #expect(error?.code == .bodyStreamFailed)
        }
    }

    @Test func largeDownloadToFileWithDigestsAndProgress() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let size = 32 * 1024 * 1024
        let destination = folder.file("big.bin")
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let reports = ProgressLog()
            let response = try await client.execute(
                StratusHTTPRequest(
                    url: base.appending(path: "bytes/\(size)"), responseDigests: [.sha256, .dropboxContentHash]),
                into: .unverifiedFile(destination),
                progress: { reports.add($0.bytesReceived) }
            )
            await client.shutdown()
            let onDisk = try Data(contentsOf: destination)
            #expect(response.file == destination)
            #expect(response.bodyLength == Int64(size))
            #expect(onDisk.count == size)
            #expect(response.bodyDigests[.sha256] == Hex.encode(Digest.sha256(onDisk)))
            let hasher = DropboxContentHash()
            hasher.update(onDisk)
            #expect(response.bodyDigests[.dropboxContentHash] == hasher.finalizeHex())
            #expect(try folder.contents() == ["big.bin"])
            let values = reports.values
            #expect(values == values.sorted())
            #expect(values.last == Int64(size))
        }
    }

    @Test func largeUploadFromFile() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let content = TestServer.content(24 * 1024 * 1024)
        let file = folder.file("up.bin")
        try content.write(to: file)
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let reports = ProgressLog()
            let response = try await client.execute(
                StratusHTTPRequest(method: .put, url: base.appending(path: "echo-digest"), body: .file(file)),
                progress: { reports.add($0.bytesSent) }
            )
            await client.shutdown()
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == "PUT \(content.count) \(Hex.encode(Digest.sha256(content))) length=\(content.count)")
            #expect(reports.values.last == Int64(content.count))
            #expect(reports.values == reports.values.sorted())
        }
    }

    @Test func errorAnswerLeavesTheDestinationUntouched() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let destination = folder.file("keep.txt")
        try Data("old content".utf8).write(to: destination)
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let response = try await client.execute(
                StratusHTTPRequest(url: base.appending(path: "missing")), into: .unverifiedFile(destination))
            await client.shutdown()
            #expect(response.status == 404)
            #expect(response.file == nil)
            #expect(String(decoding: response.body, as: UTF8.self) == "no such thing")
            #expect(try String(contentsOf: destination, encoding: .utf8) == "old content")
            #expect(try folder.contents() == ["keep.txt"])
        }
    }
}

@Suite struct HTTPClientConnectionTests {
    @Test func sequentialRequestsReuseOneConnection() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            var reused: [Bool] = []
            for _ in 0..<5 {
                let response = try await client.execute(StratusHTTPRequest(url: base.appending(path: "hello")))
                reused.append(response.connection.reused)
                #expect(response.connection.httpVersion == "HTTP/1.1")
            }
            await client.shutdown()
            #expect(reused == [false, true, true, true, true])
        }
    }
}
