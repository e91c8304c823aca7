import Foundation
import StratusDigest
import StratusHTTP
import StratusTestSupport
import Testing

@Suite struct HTTPClientStreamingTests {
    @Test func streamedDownloadArrivesWhole() async throws {
        let size = 5_000_000
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let response = try await client.stream(StratusHTTPRequest(url: base.appending(path: "bytes/\(size)")))
            #expect(response.status == 200)
            let body = try await response.body.collect(upTo: size)
            await client.shutdown()
            #expect(body == TestServer.content(size))
        }
    }

    @Test func slowReaderPausesTheTransfer() async throws {
        let size = 16 * 1024 * 1024
        try await TestServer.with(EchoRoutes.router()) { base in
            var configuration = StratusHTTPClient.Configuration()
            configuration.streamBufferSize = 256 * 1024
            let client = try StratusHTTPClient(configuration: configuration)
            let received = ProgressLog()
            let response = try await client.stream(StratusHTTPRequest(url: base.appending(path: "bytes/\(size)"))) {
                received.add($0.bytesReceived)
            }
            var iterator = response.body.makeAsyncIterator()
            var total = try await iterator.next()?.count ?? 0
            try await Task.sleep(for: .milliseconds(400))
            // While the reader sleeps, the client may hold its buffer plus what libcurl holds,
            // far less than the whole body.
            let whileSleeping = received.values.last ?? 0
            while let chunk = try await iterator.next() { total += chunk.count }
            await client.shutdown()
            #expect(whileSleeping < 4 * 1024 * 1024)
            #expect(total == size)
        }
    }

    @Test func cancellingADownloadStopsItAndLeavesNoFile() async throws {
        let folder = try TemporaryFolder(prefix: "stratus-http")
        defer { folder.remove() }
        let destination = folder.file("never.bin")
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let started = ProgressLog()
            let task = Task {
                try await client.execute(
                    StratusHTTPRequest(url: base.appending(path: "slow/100000000")), into: .unverifiedFile(destination)
                ) {
                    started.add($0.bytesReceived)
                }
            }
            while (started.values.last ?? 0) < 200_000 { try await Task.sleep(for: .milliseconds(5)) }
            task.cancel()
            // Without cancellation the slow route would run for about 30 s and succeed.
            let result = await task.result
            await client.shutdown()
            #expect(throws: StratusHTTPClientError.self) { try result.get() }
            #expect((try? result.get()) == nil)
            if case .failure(let error as StratusHTTPClientError) = result { #expect(error.code == .cancelled) }
            #expect(try folder.contents().isEmpty)
        }
    }

    @Test func cancellingAStreamedBodyStopsTheTransfer() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient()
            let task = Task {
                let response = try await client.stream(StratusHTTPRequest(url: base.appending(path: "slow/100000000")))
                var count = 0
                for try await chunk in response.body { count += chunk.count }
                return count
            }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let result = await task.result
            await client.shutdown()
            guard case .failure(let error as StratusHTTPClientError) = result else {
                Issue.record("expected a cancellation error, got \(result)")
                return
            }
            #expect(error.code == .cancelled)
        }
    }

    @Test func stalledTransferFails() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient(configuration: .init(timeouts: .init(stall: .milliseconds(300))))
            // The route resumes after 2 s of silence, so without stall detection this succeeds.
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(StratusHTTPRequest(url: base.appending(path: "stall")))
            }
            await client.shutdown()
            #expect(error?.code == .stalled)
        }
    }

    @Test func aRequestsOwnStallTimeoutReplacesTheClients() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient(configuration: .init(timeouts: .init(stall: .milliseconds(300))))
            // The route holds its answer for a second: a stall for the client's 300 ms...
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(StratusHTTPRequest(url: base.appending(path: "held")))
            }
            #expect(error?.code == .stalled)
            // ...but not for a request that expects the hold.
            var held = StratusHTTPRequest(url: base.appending(path: "held"))
            held.stallTimeout = .seconds(30)
            let response = try await client.execute(held)
            await client.shutdown()
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "done")
        }
    }

    @Test func totalTimeout() async throws {
        try await TestServer.with(EchoRoutes.router()) { base in
            let client = try StratusHTTPClient(
                configuration: .init(timeouts: .init(stall: nil, total: .milliseconds(300))))
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await client.execute(StratusHTTPRequest(url: base.appending(path: "stall")))
            }
            await client.shutdown()
            #expect(error?.code == .timeout)
            #expect(error?.curlCode == 28)
        }
    }
}
