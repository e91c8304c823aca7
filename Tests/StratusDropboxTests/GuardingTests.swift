import Foundation
import Stratus
import StratusAdapterKit
import Testing

/// `ServiceError.guarding`, which every adapter's calls run in: an unexpected error is a bug,
/// so it must not come out as a transient code that callers retry.
@Suite struct GuardingTests {
    struct ProgrammingError: Error {}

    @Test func anUnexpectedErrorIsNotTransient() async throws {
        let error = await #expect(throws: ServiceError.self) {
            try await ServiceError.guarding("Dropbox") { () async throws -> Int in throw ProgrammingError() }
        }
        #expect(error?.code == .internalError, "\(String(describing: error))")
        #expect(error?.code.isTransient == false)
        #expect(RetryPolicy.isTransient(try #require(error)) == false)
    }

    @Test func cancellationAndServiceErrorsPassAsTheyAre() async throws {
        let cancelled = await #expect(throws: ServiceError.self) {
            try await ServiceError.guarding("Dropbox") { () async throws -> Int in throw CancellationError() }
        }
        #expect(cancelled?.code == .cancelled)
        let busy = await #expect(throws: ServiceError.self) {
            try await ServiceError.guarding("Dropbox") { () async throws -> Int in throw ServiceError(.server, "busy") }
        }
        #expect(busy?.code == .server)
    }
}
