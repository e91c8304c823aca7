import Foundation
import StratusAdapterKit
import Testing

/// `URL.https(host:path:)`, an adapter's default endpoints.
@Suite struct HTTPSURLTests {
    @Test func aHostAndAPathMakeAnHTTPSURL() {
        #expect(URL.https(host: "api.dropboxapi.com").absoluteString == "https://api.dropboxapi.com")
        #expect(
            URL.https(host: "graph.microsoft.com", path: "/v1.0").absoluteString == "https://graph.microsoft.com/v1.0")
    }

    @Test func aPathThatCannotBeOneFallsBackInsteadOfCrashing() {
        #expect(URL.https(host: "example.com", path: "no-leading-slash") == URL(filePath: "/"))
    }
}
