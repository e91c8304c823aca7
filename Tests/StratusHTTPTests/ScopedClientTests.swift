import Foundation
import StratusHTTP
import Synchronization
import Testing

/// ``StratusHTTPClient/withClient(configuration:_:)`` shuts its client down on both ways out.
@Suite struct ScopedClientTests {
    struct Stop: Error {}

    @Test func theClientIsShutDownWhenTheBodyReturnsOrThrows() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/never"))
        let kept = try await StratusHTTPClient.withClient { client in client }
        let afterReturn = await #expect(throws: StratusHTTPClientError.self) {
            try await kept.execute(StratusHTTPRequest(method: .get, url: url))
        }
        #expect(afterReturn?.code == .shutDown)

        let escaped = Mutex<StratusHTTPClient?>(nil)
        await #expect(throws: Stop.self) {
            try await StratusHTTPClient.withClient { client in
                escaped.withLock { $0 = client }
                throw Stop()
            }
        }
        let thrownClient = try #require(escaped.withLock { $0 })
        let afterThrow = await #expect(throws: StratusHTTPClientError.self) {
            try await thrownClient.execute(StratusHTTPRequest(method: .get, url: url))
        }
        #expect(afterThrow?.code == .shutDown)
    }
}
