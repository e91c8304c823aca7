import ChildServers
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a single-node Ceph with its S3 gateway (`Scripts/ceph/ceph-server.sh`: one monitor,
/// one OSD on `memstore`, `radosgw` with the beast frontend, cephx off, from Debian's `ceph-mon`,
/// `ceph-osd`, `radosgw` and `ceph-common`) on loopback, for tests and benchmarks. It answers
/// about a second after the start and uses about 150 MB of memory idle, plus what is stored.
///
/// Everything stops when this process ends, however it ends: the script's stdin is a pipe whose
/// writing end this process holds for its whole life, and at the end of that input the script
/// stops the daemons and removes their folder (the daemons also die with the script, through
/// `setpriv --pdeathsig`).
///
/// Ports: Ceph's monitor and gateway need explicit ports, so the launcher asks the OS for two
/// free loopback ports (bind to port 0, read it, close) and hands them to the script; when one
/// was taken meanwhile the script says so and the launcher tries again with new ports (up to
/// five times). The OSD picks free ports itself in Ceph's range (6800-7300).
public enum CephLauncher {
    /// A running Ceph gateway.
    public struct Server: Sendable {
        /// The gateway's endpoint, `http://127.0.0.1:PORT`.
        public var endpoint: URL
        /// The S3 user's access key.
        public var accessKeyID: String
        /// The S3 user's secret key.
        public var secretAccessKey: String
        /// The smallest part of a multipart upload the gateway accepts (except the last).
        public var minimumPartSize: Int64
        /// The region to sign with (Ceph's default zone group accepts any; `us-east-1`).
        public var region: String { "us-east-1" }
    }

    /// The programs the script runs.
    static let programs = ["ceph-mon", "ceph-osd", "radosgw", "radosgw-admin", "ceph", "monmaptool"]

    /// Whether Ceph's monitor, OSD, gateway and tools are installed (looked up once per process).
    public static func isInstalled() -> Bool { installed }

    private static let installed: Bool = programs.allSatisfy { executable(named: $0) != nil }

    /// The packages to install when ``isInstalled()`` is `false`.
    public static let packages = "ceph-mon ceph-osd radosgw ceph-common"

    /// Starts a cluster.
    /// - Parameters:
    ///   - minimumPartSize: The smallest multipart part the gateway accepts
    ///     (`rgw_multipart_min_part_size`; S3 and Ceph default to 5 MiB).
    ///   - storeBytes: The OSD's memstore size: what the cluster can hold, kept in memory as it
    ///     fills.
    ///   - accessKeyID: The S3 user's access key; random when `nil`.
    ///   - secretAccessKey: The S3 user's secret key; random when `nil`.
    /// - Returns: The gateway and its user.
    /// - Throws: ``CephUnavailable`` with the daemons' own log output when it does not start.
    public static func start(
        minimumPartSize: Int64 = 5 * 1_048_576, storeBytes: Int64 = 2 * 1_073_741_824,
        accessKeyID: String? = nil, secretAccessKey: String? = nil
    ) async throws -> Server {
        let key = accessKeyID ?? "STRATUS" + randomText(13).uppercased()
        let secret = secretAccessKey ?? randomText(40)
        return try await ChildServer.offThePool {
            try startBlocking(
                minimumPartSize: minimumPartSize, storeBytes: storeBytes, accessKeyID: key, secretAccessKey: secret)
        }
    }

    /// ``start(minimumPartSize:storeBytes:accessKeyID:secretAccessKey:)``, blocking the calling
    /// thread until the gateway answers.
    private static func startBlocking(
        minimumPartSize: Int64, storeBytes: Int64, accessKeyID: String, secretAccessKey: String
    ) throws -> Server {
        guard isInstalled() else {
            throw CephUnavailable(
                reason:
                    "Ceph is not installed (\(programs.filter { executable(named: $0) == nil }.joined(separator: ", ")) missing): apt-get install \(packages)"
            )
        }
        var reasons: [String] = []
        for _ in 0..<5 {
            let monitorPort = try port()
            var gatewayPort = try port()
            while gatewayPort == monitorPort { gatewayPort = try port() }
            let log = FileManager.default.temporaryDirectory.appending(path: "stratus-ceph-\(UUID().uuidString).log")
            do {
                let port = try ChildServer.startReportingPort(
                    [
                        "/bin/bash", scriptURL().path, String(monitorPort), String(gatewayPort), accessKeyID,
                        secretAccessKey, String(minimumPartSize), String(storeBytes),
                    ],
                    log: log, name: "Ceph")
                guard let url = URL(string: "http://127.0.0.1:\(port)") else {
                    throw CephUnavailable(reason: "no URL for port \(port)")
                }
                return Server(
                    endpoint: url, accessKeyID: accessKeyID, secretAccessKey: secretAccessKey,
                    minimumPartSize: minimumPartSize)
            } catch let failure as ChildServer.Failure {
                try? FileManager.default.removeItem(at: log)
                // The script's own words when a port was taken meanwhile: try other ports.
                guard failure.reason.contains("port") && failure.reason.contains("is taken") else {
                    throw CephUnavailable(reason: failure.reason)
                }
                reasons.append(failure.reason.split(separator: "\n").first.map(String.init) ?? failure.reason)
            }
        }
        throw CephUnavailable(reason: "Ceph found its ports taken five times: \(reasons.joined(separator: "; "))")
    }

    /// ``ChildServers/ChildServer/freeLoopbackPort()``, its failure as CephUnavailable.
    private static func port() throws -> Int {
        do { return try ChildServer.freeLoopbackPort() } catch let failure as ChildServer.Failure {
            throw CephUnavailable(reason: failure.reason)
        }
    }

    private static func executable(named name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/bin:/usr/sbin"
        return paths.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private static func randomText(_ count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<count).map { _ in alphabet.randomElement() ?? "x" })
    }

    private static func scriptURL() -> URL {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Scripts/ceph/ceph-server.sh")
    }
}

/// Ceph could not be started.
public struct CephUnavailable: Error, CustomStringConvertible {
    /// Why, with the daemons' own log output.
    public var reason: String
    /// The ``reason``.
    public var description: String { reason }
}
