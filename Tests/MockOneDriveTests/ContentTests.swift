import Foundation
import MockOneDrive
import MockProviders
import StratusHTTP
import Testing

@Suite("Graph mock: /content redirects to the pre-authenticated download host")
struct ContentTests {
    @Test("as Graph: a bearer token sent to the download URL is ignored")
    func tokenIgnored() async throws {
        try await OneDriveMockProvider().withSession { harness in
            let content = OneDriveHarness.bytes(700)
            try await harness.put("/t.bin", content)
            let redirect = try await harness.send(.get, "/v1.0/me/drive/root:/t.bin:/content")
            let location = try #require(redirect.headers["Location"].flatMap(URL.init(string:)))
            let withToken = try await harness.send(.get, absolute: location, token: harness.token)
            #expect(withToken.status == 200)
            #expect(withToken.body == content)
        }
    }

    @Test("302 to the content host, which serves the bytes and ranges without a token and refuses one when strict")
    func download() async throws {
        try await OneDriveMockProvider(options: .init(strictClient: true)).withSession { harness in
            let content = OneDriveHarness.bytes(5000)
            let item = try await harness.put("/d/file.bin", content)
            let redirect = try await harness.send(.get, "/v1.0/me/drive/root:/d/file.bin:/content")
            #expect(redirect.status == 302)
            let location = try #require(redirect.headers["Location"].flatMap(URL.init(string:)))
            #expect(location.port == harness.contentURL?.port)
            #expect(location.port != harness.graphURL.port)
            #expect(item["@microsoft.graph.downloadUrl"] as? String == location.absoluteString)

            let whole = try await harness.send(.get, absolute: location)
            #expect(whole.status == 200)
            #expect(whole.body == content)
            let ranged = try await harness.send(.get, absolute: location, headers: [("Range", "bytes=4000-")])
            #expect(ranged.status == 206)
            #expect(ranged.body == content[4000...])
            #expect(ranged.headers["Content-Range"] == "bytes 4000-4999/5000")
            let outside = try await harness.send(.get, absolute: location, headers: [("Range", "bytes=9000-")])
            #expect(outside.status == 416)

            let withToken = try await harness.send(.get, absolute: location, token: harness.token)
            #expect(withToken.status == 401)
            var forged = try #require(URLComponents(url: location, resolvingAgainstBaseURL: false))
            forged.path = String(forged.path.dropLast(4)) + "0000"
            #expect(try await harness.send(.get, absolute: try #require(forged.url)).status == 401)

            let folder = try await harness.send(.get, "/v1.0/me/drive/root:/d:/content")
            #expect(folder.status == 400)
        }
    }
}
