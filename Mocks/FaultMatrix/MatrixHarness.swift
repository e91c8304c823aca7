import Foundation
import MockSupport
import Stratus

/// A running mock with a service against it, as one matrix cell needs.
public struct MatrixHarness: Sendable {
    /// The service under test: its HTTP client gives up after
    /// ``MatrixFault/clientStallTimeout`` without progress, and it refreshes expired tokens.
    public var service: any Service
    /// The mock's fault rules.
    public var faults: FaultInjector
    /// The mock's request log.
    public var requestLog: RequestLog
    /// The size of the small upload (one request) and of the chunked upload.
    public var smallSize: Int
    /// The size of the chunked upload (several requests).
    public var chunkedSize: Int
    /// The route each operation's main request goes to: a path pattern (see
    /// ``MockSupport/FaultRule/route``) and a method.
    public var route: @Sendable (MatrixOperation) -> (path: String, method: String)
    /// Whether a deleted file's versions can still be listed through the service.
    public var keepsVersionsOfDeletedFiles: Bool
    /// Whether every listed version carries its content hash; when not (OneDrive: Graph gives
    /// only the current version's), a version without one is checked by its size alone.
    public var everyVersionHasHash: Bool

    /// Creates a harness.
    public init(
        service: any Service,
        faults: FaultInjector,
        requestLog: RequestLog,
        smallSize: Int,
        chunkedSize: Int,
        keepsVersionsOfDeletedFiles: Bool,
        everyVersionHasHash: Bool = true,
        route: @escaping @Sendable (MatrixOperation) -> (path: String, method: String)
    ) {
        self.service = service
        self.faults = faults
        self.requestLog = requestLog
        self.smallSize = smallSize
        self.chunkedSize = chunkedSize
        self.keepsVersionsOfDeletedFiles = keepsVersionsOfDeletedFiles
        self.everyVersionHasHash = everyVersionHasHash
        self.route = route
    }
}

/// A provider the matrix runs against: starts a fresh mock and a service for one cell.
public protocol MatrixProvider: Sendable {
    /// The provider's name in the table.
    var name: String { get }
    /// Runs `body` with a fresh mock and service, and stops both afterwards.
    func withHarness(_ body: @Sendable (MatrixHarness) async throws -> Void) async throws
}
