import Foundation
import Hummingbird
import MockSupport

/// What the launchers need of a mock server, whichever provider it imitates.
public protocol MockProviderServer: Sendable {
    /// The mock's fault rules, also reachable over HTTP on `/__stratus/faults`.
    var faults: FaultInjector { get }

    /// Every request the mock answered, secrets redacted.
    var requestLog: RequestLog { get }

    /// The file the mock saves its state to, when it saves it.
    var stateFile: URL? { get }

    /// Saves the mock's state now, if it saves it at all.
    func saveState() async throws

    /// Mounts every route of the mock's main host on a fresh router.
    /// - Parameter router: The router.
    func addRoutes(to router: Router<BasicRequestContext>)

    /// The second host the mock serves on a port of its own, if it has one (OneDrive's
    /// download and upload host).
    var contentHost: MockContentHost? { get }
}

extension MockProviderServer {
    /// No second host.
    public var contentHost: MockContentHost? { nil }
}
