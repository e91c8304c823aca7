import Foundation
import Stratus
import StratusDigest
import StratusHTTP
import Testing

/// Users can build responses and progress reports for their own tests.
@Suite struct PublicInitializerTests {
    @Test func responsesAndProgressCanBeBuilt() throws {
        let response = StratusHTTPResponse(
            status: 404, headers: ["Content-Type": "text/plain"], body: Data("gone".utf8))
        #expect(!response.isSuccess)
        #expect(response.bodyLength == 4)
        #expect(response.headers["content-type"] == "text/plain")
        #expect(response.connection == ConnectionInfo(reused: false, httpVersion: "HTTP/1.1"))
        let hashed = StratusHTTPResponse(status: 200, bodyLength: 10, bodyDigests: [.sha256: "ab"])
        #expect(hashed.isSuccess && hashed.bodyLength == 10 && hashed.bodyDigests[.sha256] == "ab")

        let progress = HTTPProgress(bytesSent: 5, bytesToSend: 10)
        #expect(progress == HTTPProgress(bytesSent: 5, bytesToSend: 10, bytesReceived: 0, bytesToReceive: nil))
    }

    @Test func streamingResponseCanBeBuiltAndRead() async throws {
        let streamed = HTTPStreamingResponse(
            status: 200, body: HTTPBodyStream(chunks: [Data("ab".utf8), Data("cd".utf8)]))
        #expect(streamed.status == 200)
        #expect(try await streamed.body.collect(upTo: 10) == Data("abcd".utf8))

        let failing = HTTPBodyStream(chunks: [Data("a".utf8)], failure: StratusHTTPClientError(.connectionLost, "gone"))
        var chunks: [Data] = []
        let error = await #expect(throws: StratusHTTPClientError.self) {
            for try await chunk in failing { chunks.append(chunk) }
        }
        #expect(chunks == [Data("a".utf8)])
        #expect(error?.code == .connectionLost)
    }

    @Test func anUnknownDigestIsAnInvalidRequest() async throws {
        let client = try StratusHTTPClient()
        let url = try #require(URL(string: "http://127.0.0.1:9/never"))
        let request = StratusHTTPRequest(url: url, responseDigests: [HashAlgorithm(rawValue: "whirlpool")])
        let error = await #expect(throws: StratusHTTPClientError.self) { try await client.execute(request) }
        await client.shutdown()
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("whirlpool") == true)
    }
}
