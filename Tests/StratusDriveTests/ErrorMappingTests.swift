import Foundation
import Stratus
import StratusHTTP
import Testing

@testable import StratusDrive

/// Google's status and reason → ``ServiceError/Code`` table.
@Suite struct ErrorMappingTests {
    private func body(
        _ code: Int, _ reason: String, _ message: String = "Something happened.", domain: String = "global"
    ) -> String {
        #"{"error": {"code": \#(code), "message": "\#(message)", "errors": [{"domain": "\#(domain)", "reason": "\#(reason)", "message": "\#(message)"}]}}"#
    }

    private func map(_ status: Int, _ body: String, headers: StratusHTTPHeaders = [:]) -> ServiceError {
        DriveErrorMapping.error(
            status: status, headers: headers, body: Data(body.utf8), action: "files.test", secrets: [])
    }

    @Test func serverTextIsScrubbedOfTheTokenAndTerminalEscapes() {
        let token = "ya29.secret-token-77"
        let echoed = body(400, "badRequest", "you sent Authorization: Bearer \(token) and \(token)\u{1B}[2J")
        let error = DriveErrorMapping.error(
            status: 400, headers: [:], body: Data(echoed.utf8), action: "files.test", secrets: [token])
        let shown = "\(error.message) \(error.providerError ?? "") \(error)"
        #expect(!shown.contains(token), "\(shown)")
        #expect(!shown.contains("\u{1B}"))
        #expect(shown.contains("<redacted>"))
    }

    static let cases: [(Int, String, ServiceError.Code)] = [
        (400, "invalid", .invalidResponse),
        (400, "badRequest", .invalidResponse),
        (401, "authError", .unauthorized),
        (403, "rateLimitExceeded", .rateLimited),
        (403, "userRateLimitExceeded", .rateLimited),
        (403, "storageQuotaExceeded", .quotaExceeded),
        (403, "dailyLimitExceeded", .quotaExceeded),
        (403, "insufficientFilePermissions", .permissionDenied),
        (403, "appNotAuthorizedToFile", .permissionDenied),
        (403, "notSupportedForAppDataFolderFiles", .permissionDenied),
        (404, "notFound", .notFound),
        (409, "conflict", .conflict),
        (412, "conditionNotMet", .conflict),
        (413, "uploadTooLarge", .payloadTooLarge),
        (429, "rateLimitExceeded", .rateLimited),
        (500, "backendError", .server),
        (503, "backendError", .server),
        (418, "teapot", .invalidResponse),
    ]

    @Test(arguments: 0..<cases.count)
    func statusAndReason(_ index: Int) {
        let (status, reason, code) = Self.cases[index]
        let error = map(status, body(status, reason, "Reason \(reason)."))
        #expect(error.code == code)
        #expect(error.httpStatus == status)
        #expect(error.providerError == "\(reason): Reason \(reason).")
        #expect(error.message.contains("files.test"))
    }

    @Test func a403IsARateLimitOnlyByItsReason() {
        #expect(map(403, body(403, "rateLimitExceeded")).code.isTransient)
        #expect(!map(403, body(403, "insufficientFilePermissions")).code.isTransient)
        #expect(map(403, "not json").code == .permissionDenied)
    }

    @Test func retryAfterIsKept() {
        #expect(map(429, body(429, "rateLimitExceeded"), headers: ["Retry-After": "7"]).retryAfter == .seconds(7))
        #expect(map(429, "").retryAfter == .seconds(1))
        #expect(map(403, body(403, "userRateLimitExceeded"), headers: ["Retry-After": "3"]).retryAfter == .seconds(3))
    }

    @Test func googleMessageIsKeptAndPlainBodiesToo() {
        let notFound = map(404, body(404, "notFound", "File not found: 1AbC."))
        #expect(notFound.providerError == "notFound: File not found: 1AbC.")
        #expect(notFound.message.contains("File not found: 1AbC."))
        let plain = map(502, "<html>Bad Gateway</html>")
        #expect(plain.code == .server)
        #expect(plain.providerError == "<html>Bad Gateway</html>")
        #expect(map(500, "").providerError == nil)
        let status = map(
            401,
            #"{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}}"#
        )
        #expect(status.code == .unauthorized)
        #expect(status.providerError == "Request had invalid authentication credentials.")
    }

    @Test func errorBodyParsing() {
        let parsed = DriveErrorBody.parse(Data(body(403, "rateLimitExceeded", domain: "usageLimits").utf8))
        #expect(parsed?.reasons == ["rateLimitExceeded"])
        #expect(parsed?.errors.first?.domain == "usageLimits")
        #expect(DriveErrorBody.parse(Data("{}".utf8)) == nil)
    }
}
