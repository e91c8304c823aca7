import Foundation
import Stratus
import StratusHTTP
import StratusOAuth
import Testing

@testable import StratusOneDrive

@Suite("OneDrive error mapping")
struct ErrorMappingTests {
    private func body(_ json: String) -> Data { Data(json.utf8) }

    private func map(
        _ status: Int, _ json: String = "", headers: StratusHTTPHeaders = [:], secrets: [String] = []
    ) -> ServiceError {
        OneDriveErrorMapping.error(
            status: status, headers: headers, body: body(json), action: "GET item", secrets: secrets)
    }

    @Test("The innererror chain is read outermost first, however deep")
    func innerErrorChain() throws {
        let parsed = try #require(
            OneDriveErrorBody.parse(
                body(
                    #"{"error":{"code":"invalidRequest","message":"Resync","innererror":{"code":"resyncRequired","innererror":{"code":"resyncChangesApplyDifferences"}}}}"#
                )))
        #expect(parsed.codes == ["invalidRequest", "resyncRequired", "resyncChangesApplyDifferences"])
        #expect(parsed.message == "Resync")
        #expect(parsed.has("RESYNCREQUIRED"))
        #expect(OneDriveErrorBody.parse(body("not json")) == nil)
        #expect(OneDriveErrorBody.parse(body(#"{"value":[]}"#)) == nil)
    }

    @Test(
        "Every resync spelling, at any depth, is invalidChangeToken",
        arguments: OneDriveErrorMapping.resyncCodes)
    func resyncCodes(code: String) {
        let nested = #"{"error":{"code":"invalidRequest","innererror":{"code":"\#(code)"}}}"#
        #expect(map(410, nested).code == .invalidChangeToken)
        #expect(map(400, nested).code == .invalidChangeToken)
        #expect(map(410).code == .invalidChangeToken)
    }

    @Test("Statuses and codes map to Stratus codes")
    func statuses() {
        #expect(map(400, #"{"error":{"code":"invalidRequest","message":"x"}}"#).code == .invalidResponse)
        #expect(map(401, #"{"error":{"code":"InvalidAuthenticationToken"}}"#).code == .unauthorized)
        #expect(map(403, #"{"error":{"code":"accessDenied"}}"#).code == .permissionDenied)
        #expect(map(403, #"{"error":{"code":"quotaLimitReached"}}"#).code == .quotaExceeded)
        #expect(map(404, #"{"error":{"code":"itemNotFound"}}"#).code == .notFound)
        #expect(map(409, #"{"error":{"code":"nameAlreadyExists"}}"#).code == .conflict)
        #expect(map(412, #"{"error":{"code":"preconditionFailed"}}"#).code == .conflict)
        #expect(map(413).code == .payloadTooLarge)
        #expect(map(423, #"{"error":{"code":"resourceLocked"}}"#).code == .conflict)
        #expect(map(500, #"{"error":{"code":"generalException"}}"#).code == .server)
        #expect(map(503).code == .server)
        #expect(map(302).code == .invalidResponse)
    }

    @Test("507 is its own code: quotaExceeded, not a retried server failure")
    func insufficientStorage() {
        let error = map(507, #"{"error":{"code":"quotaLimitReached","message":"Insufficient Space Available"}}"#)
        #expect(error.code == .quotaExceeded)
        #expect(error.httpStatus == 507)
        #expect(!RetryPolicy.isTransient(error))
        #expect(error.providerError?.contains("quotaLimitReached") == true)
    }

    @Test("429 and a 503 with Retry-After are rate limits carrying the wait")
    func rateLimits() {
        var headers = StratusHTTPHeaders()
        headers.set("Retry-After", "7")
        let limited = map(429, #"{"error":{"code":"activityLimitReached"}}"#, headers: headers)
        #expect(limited.code == .rateLimited)
        #expect(limited.retryAfter == .seconds(7))
        #expect(map(429).retryAfter == .seconds(1))
        let busy = map(503, #"{"error":{"code":"serviceNotAvailable"}}"#, headers: headers)
        #expect(busy.code == .rateLimited)
        #expect(busy.retryAfter == .seconds(7))
    }

    @Test("Secrets the server echoes are scrubbed from the message and provider error")
    func secretsScrubbed() {
        let secret = "EwBwA8l6BAAUtest-secret-token-value"
        let error = map(
            401, #"{"error":{"code":"InvalidAuthenticationToken","message":"Token \#(secret) expired"}}"#,
            secrets: [secret])
        #expect(!error.message.contains(secret))
        #expect(error.providerError?.contains(secret) != true)
        #expect(!String(describing: error).contains(secret))
    }

    @Test("Graph's 401 InvalidAuthenticationToken asks for a refresh; a missing scope does not")
    func tokenRejection() {
        let rule = OAuthProviderRule.rule
        #expect(
            rule.matches(status: 401, headers: [:], body: body(#"{"error":{"code":"InvalidAuthenticationToken"}}"#)))
        #expect(!rule.matches(status: 401, headers: [:], body: body(#"{"error":{"code":"accessDenied"}}"#)))
        #expect(
            !rule.matches(status: 403, headers: [:], body: body(#"{"error":{"code":"InvalidAuthenticationToken"}}"#)))
    }
}

/// The rule the Microsoft profile uses.
private enum OAuthProviderRule {
    static let rule = StratusOAuth.TokenRejection.microsoftGraph
}
