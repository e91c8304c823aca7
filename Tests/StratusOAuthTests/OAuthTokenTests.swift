import Foundation
import StratusOAuth
import Testing

@Suite struct OAuthTokenTests {
    let token = OAuthToken(
        accessToken: "sl.access-SECRET-1",
        refreshToken: "refresh-SECRET-2",
        expiresAt: Date(timeIntervalSince1970: 1_900_000_000),
        scopes: ["files.content.read", "files.content.write"],
        tokenType: "bearer"
    )

    @Test func roundTripsThroughJSONWithSnakeCaseKeys() throws {
        let data = try JSONEncoder().encode(token)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["access_token"] as? String == "sl.access-SECRET-1")
        #expect(object["refresh_token"] as? String == "refresh-SECRET-2")
        #expect(object["expires_at"] as? Double == 1_900_000_000)
        #expect(object["scopes"] as? [String] == ["files.content.read", "files.content.write"])
        #expect(object["token_type"] as? String == "bearer")
        #expect(try JSONDecoder().decode(OAuthToken.self, from: data) == token)
    }

    @Test func decodesAMinimalToken() throws {
        let decoded = try JSONDecoder().decode(OAuthToken.self, from: Data(#"{"access_token": "a"}"#.utf8))
        #expect(decoded == OAuthToken(accessToken: "a"))
        #expect(decoded.refreshToken == nil)
        #expect(decoded.expiresAt == nil)
        #expect(decoded.tokenType == "bearer")
    }

    @Test func expiryHonoursTheMargin() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let token = OAuthToken(accessToken: "a", expiresAt: now.addingTimeInterval(600))
        #expect(!token.isExpired(at: now))
        #expect(!token.isExpired(at: now, margin: .seconds(599)))
        #expect(token.isExpired(at: now, margin: .seconds(600)))
        #expect(token.isExpired(at: now.addingTimeInterval(601)))
        #expect(!OAuthToken(accessToken: "a").isExpired(at: .distantFuture, margin: .seconds(3600)))
    }

    @Test func authorizationHeaderIsBearerWhateverTheTypeCase() {
        let google = OAuthToken(accessToken: "ya29.x", tokenType: "Bearer")
        #expect(google.authorizationHeaderValue == "Bearer ya29.x")
        #expect(token.authorizationHeaderValue == "Bearer sl.access-SECRET-1")
    }

    @Test func descriptionsAndDumpCarryNoSecret() {
        var dumped = ""
        dump(token, to: &dumped)
        for text in [token.description, String(reflecting: token), "\(token)", dumped, "\([token])"] {
            #expect(!text.contains("SECRET"), "\(text)")
        }
        #expect(token.description.contains("<redacted>"))
        #expect(token.description.contains("files.content.read"))
        #expect(OAuthToken(accessToken: "a-SECRET").description.contains("refresh: none"))
    }
}
