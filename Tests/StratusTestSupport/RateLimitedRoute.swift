import Foundation
import Stratus
import Testing

/// A request route a provider refuses with HTTP 429 for good, and an operation that needs it.
///
/// The operation must fail as rate-limited after sending exactly the retry policy's
/// `maximumAttempts` requests to the route: the one retry loop sends each request, and no
/// retrying request runs inside another loop.
public struct RateLimitedRoute: Sendable, CustomTestStringConvertible {
    /// The operation.
    public var operation: RateLimitedOperation
    /// The route's path, `*` standing for any run of characters.
    public var route: String
    /// The route's method; `nil` for any.
    public var method: String?

    /// Creates a refused route.
    /// - Parameters:
    ///   - operation: The operation that needs the route.
    ///   - route: The route's path, `*` standing for any run of characters.
    ///   - method: The route's method; `nil` for any.
    public init(_ operation: RateLimitedOperation, route: String, method: String? = nil) {
        self.operation = operation
        self.route = route
        self.method = method
    }

    /// The operation and the refused route.
    public var testDescription: String { "\(operation), \(method ?? "any") \(route) refused" }

    /// Prepares the operation on `service`, refuses the route, runs the operation, and checks
    /// that it fails as rate-limited after `maximumAttempts` requests to the route, leaving no
    /// file behind when it downloads.
    /// - Parameters:
    ///   - service: A service whose retry policy allows `maximumAttempts` attempts.
    ///   - maximumAttempts: The policy's attempts.
    ///   - refuse: Refuses a route (of a method, or any) from the call on, and returns a count
    ///     of the requests the route receives after it, as `RunningMock.rateLimitForGood` does.
    public func check(
        _ service: any Service, maximumAttempts: Int,
        refusing refuse: (_ route: String, _ method: String?) -> @Sendable () -> Int
    ) async throws {
        let folder = try TemporaryFolder(prefix: "ratelimit")
        defer { folder.remove() }
        let run = try await operation.prepared(on: service, downloadingInto: folder.url)
        let requests = refuse(route, method)
        let error = await #expect(throws: ServiceError.self) { try await run() }
        #expect(error?.code == .rateLimited, "\(String(describing: error))")
        #expect(requests() == maximumAttempts)
        #expect(try folder.contents().isEmpty)
    }
}
