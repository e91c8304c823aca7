import FaultMatrix
import Foundation
import MockSupport
import MotoSupport
import Stratus
import StratusLocal
import StratusS3

/// Where a simulation's devices sync: the `local` backend, or a mock Dropbox, Drive or OneDrive
/// started for the run on a free loopback port, whose faults the simulation can turn on.
public enum SimulationRemote: String, CaseIterable, Sendable {
    /// A `local` service in the run's folder.
    case local
    /// ``MockDropbox`` through a `DropboxService`.
    case dropbox
    /// ``MockDrive`` through a `DriveService`.
    case drive
    /// ``MockOneDrive`` (its Graph host and its content host) through a `OneDriveService`.
    case onedrive
    /// moto's S3 server (started once per process; needs `pip install 'moto[server]'`), a
    /// bucket of its own per run.
    case s3

    /// The remotes this machine can run: all of them where moto is installed, and always under
    /// `CI=true`, where a missing moto must fail rather than be skipped.
    /// (Worked out once per process: every parameterised test asks, and each answer would
    /// otherwise start `python3` to try importing moto.)
    public static let available: [SimulationRemote] = {
        let ci = ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
        return ci || MotoLauncher.isInstalled() ? allCases : [.local, .dropbox, .drive, .onedrive]
    }()

    static let moto = Task<URL, any Error> { try await MotoLauncher.start(minimumPartSize: 256 * 1024) }

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
            try await DropboxMatrixProvider(clientStallTimeout: nil).withHarness { harness in
                try await body(harness.service, Self.faultSwitch(harness.faults, chance: faultChance, seed: seed))
            }
        case .drive:
            try await DriveMatrixProvider(clientStallTimeout: nil).withHarness { harness in
                try await body(harness.service, Self.faultSwitch(harness.faults, chance: faultChance, seed: seed))
            }
        case .onedrive:
            try await OneDriveMatrixProvider(clientStallTimeout: nil).withHarness { harness in
                try await body(harness.service, Self.faultSwitch(harness.faults, chance: faultChance, seed: seed))
            }
        case .s3:
            let endpoint = try await Self.moto.value
            let bucket =
                "stratus-sync-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
            try await MotoLauncher.createBucket(bucket, at: endpoint)
            let service = try S3Service(
                configuration: S3Configuration(
                    endpoint: endpoint, bucket: bucket, addressing: .path, versioning: .enable,
                    singleUploadLimit: 512 * 1024, partSize: 256 * 1024, minimumPartSize: 256 * 1024,
                    retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
                    // Polled at most every 2 s (the default grows to 30 s while idle), so that how
                    // soon a device sees a change depends on its sync, not on where the schedule
                    // stood: the automatic-sync tests wait a minute on a busy machine.
                    pollingSchedule: PollingSchedule(minimum: .milliseconds(200), maximum: .seconds(2))
                ),
                credentials: S3Credentials(accessKeyID: "AKIDMOTOTEST", secretAccessKey: "moto-test-secret-not-real")
            )
            try await body(service, nil)
        }
    }

    private static func faultSwitch(_ faults: FaultInjector, chance: Double, seed: UInt64) -> SyncSimulation
        .FaultSwitch?
    {
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
