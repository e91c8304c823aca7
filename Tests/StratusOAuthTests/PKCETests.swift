import Foundation
import StratusOAuth
import Testing

@Suite struct PKCETests {
    /// RFC 7636 Appendix B; the challenge was also checked with Python's hashlib and base64.
    @Test func s256ChallengeMatchesRFC7636AppendixB() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.challengeMethod == "S256")
    }

    @Test func randomVerifiersAreLongUnreservedAndDistinct() throws {
        let verifiers = try (0..<200).map { _ in try PKCE.random().verifier }
        #expect(Set(verifiers).count == 200)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for verifier in verifiers {
            #expect((43...128).contains(verifier.count))
            #expect(verifier.allSatisfy { allowed.contains($0) })
        }
    }

    @Test func descriptionHidesTheVerifier() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(!pkce.description.contains(pkce.verifier))
        #expect(!String(reflecting: pkce).contains(pkce.verifier))
        #expect(pkce.description.contains(pkce.challenge))
    }
}
