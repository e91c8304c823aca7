import Foundation
import Stratus
import Testing

@Suite("ServiceError")
struct ServiceErrorTests {
    struct Cause: Error, CustomStringConvertible {
        var description: String { "connection reset by peer" }
    }

    @Test("the description is the code and the message when there are no details")
    func plainDescription() {
        let error = ServiceError(.notFound, "No file at saves/slot-1.json.")
        #expect(error.description == "notFound: No file at saves/slot-1.json.")
        #expect(error.localizedDescription == error.description)
        #expect(error.errorDescription == error.description)
    }

    @Test("the description lists the HTTP status, provider error, Retry-After and cause")
    func detailedDescription() {
        let error = ServiceError(
            .rateLimited,
            "Too many requests.",
            httpStatus: 429,
            providerError: "too_many_write_operations",
            retryAfter: .seconds(2),
            underlying: Cause()
        )
        #expect(error.description.hasPrefix("rateLimited: Too many requests. ("))
        #expect(error.description.contains("HTTP 429"))
        #expect(error.description.contains("provider: too_many_write_operations"))
        #expect(error.description.contains("retry after 2"))
        #expect(error.description.contains("cause: connection reset by peer"))
        #expect(error.httpStatus == 429)
        #expect(error.retryAfter == .seconds(2))
    }

    @Test("only rate limits, server, network and timeout failures are transient")
    func transientCodes() {
        let transient: [ServiceError.Code] = [.rateLimited, .server, .network, .timeout]
        let permanent: [ServiceError.Code] = [
            .notFound, .conflict, .unauthorized, .reauthenticationRequired, .quotaExceeded,
            .payloadTooLarge, .invalidPath, .invalidChangeToken, .integrityMismatch, .cancelled,
            .unsupported, .invalidConfiguration, .invalidResponse, .localFile, .permissionDenied,
        ]
        for code in transient { #expect(code.isTransient, "\(code)") }
        for code in permanent { #expect(!code.isTransient, "\(code)") }
        #expect(Set((transient + permanent).map(\.description)).count == transient.count + permanent.count)
    }

    @Test("codes compare with == and match in a switch")
    func codeMatching() {
        let error = ServiceError(.conflict, "Changed meanwhile.")
        #expect(error.code == .conflict)
        #expect(error.code != .notFound)
        let matched: Bool
        switch error.code {
        case .conflict: matched = true
        default: matched = false
        }
        #expect(matched)
        #expect(ServiceError.Code.invalidConfiguration.description == "invalidConfiguration")
    }
}
