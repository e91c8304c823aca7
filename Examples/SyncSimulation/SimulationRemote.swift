import FaultMatrix
import Foundation
import MockSupport
import Stratus
import StratusLocal

/// Where a simulation's devices sync: the `local` backend, or a mock Dropbox or Drive started
/// for the run on a free loopback port, whose faults the simulation can turn on.
public enum SimulationRemote: String, CaseIterable, Sendable {
    /// A `local` service in the run's folder.
    case local
    /// ``MockDropbox`` through a `DropboxService`.
    case dropbox
    /// ``MockDrive`` through a `DriveService`.
    case drive

    /// Runs `body` with a service on this remote, stopping the mock afterwards.
    /// - Parameters:
    ///   - folder: The run's folder.
    ///   - faultChance: The chance that a request to the mock is answered with a 503 while
    ///     faults are on (a mock only; `local` has no faults).
    ///   - seed: The seed of the mock's fault draws.
    ///   - body: Gets the service and the switch for its faults.
    public func withService(
        folder: URL,
        faultChance: Double,
        seed: UInt64,
        _ body: @escaping @Sendable (any Service, SyncSimulation.FaultSwitch?) async throws -> Void
    ) async throws {
        switch self {
        case .local:
            try await body(LocalService(root: folder.appending(path: "remote", directoryHint: .isDirectory)), nil)
        case .dropbox:
            try await DropboxMatrixProvider().withHarness { harness in
                try await body(harness.service, Self.faultSwitch(harness.faults, chance: faultChance, seed: seed))
            }
        case .drive:
            try await DriveMatrixProvider().withHarness { harness in
                try await body(harness.service, Self.faultSwitch(harness.faults, chance: faultChance, seed: seed))
            }
        }
    }

    private static func faultSwitch(_ faults: FaultInjector, chance: Double, seed: UInt64) -> SyncSimulation.FaultSwitch? {
        guard chance > 0 else { return nil }
        return { on in
            if on {
                _ = faults.add(FaultRule(route: "*", times: 0, probability: chance, seed: seed, fault: .status(503)))
            } else {
                faults.removeAll()
            }
        }
    }
}
