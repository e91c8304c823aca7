import BenchmarkSupport
import CephSupport
import Foundation
import MotoSupport
import Stratus
import StratusDigest
import StratusHTTP
import StratusS3
import WebDAVServers

#if canImport(Glibc)
    import Glibc
#endif

/// Starts the real servers the S3 and WebDAV rows run against (moto's S3 server through
/// `MotoLauncher`, a single-node Ceph through `CephLauncher`, Apache httpd's mod_dav through
/// `WebDAVServerLauncher`) and sets up the clients for them. The servers stop when the benchmark
/// ends.
enum ServerRuns {
    static func start(
        _ provider: Provider, options: BenchmarkOptions, executable: String, workspace: URL,
        processes: MeasuredProcess
    ) async throws -> ServerRun {
        // Random secrets: moto accepts any key; Apache gets a user made for this run.
        let secret = Hex.encode(try SecureRandom.bytes(count: 16))
        switch provider {
        case .s3:
            guard MotoLauncher.isInstalled() else {
                throw BenchmarkFailure("moto is not installed for python3: pip install 'moto[server]'")
            }
            Progress.say("starting moto's S3 server")
            let url = try await MotoLauncher.start(minimumPartSize: 5 * 1_048_576)
            try await MotoLauncher.createBucket(StratusClients.s3Bucket, at: url)
            let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
            let endpoint = MockEndpoint(
                provider: .s3, baseURL: base, accessToken: secret, user: "AKIDSTRATUSBENCH", caFile: "")
            let rclone = RcloneClient(
                processes: processes, provider: .s3, workspace: workspace,
                remoteSettings: [
                    "type": "s3", "provider": "Other", "endpoint": base, "access_key_id": endpoint.user,
                    "secret_access_key": secret, "region": "us-east-1", "force_path_style": "true",
                ])
            return ServerRun(
                options: options, executable: executable, workspace: workspace, processes: processes,
                endpoint: endpoint, rclone: rclone, curl: nil, rclonePrefix: StratusClients.s3Bucket)
        case .s3Ceph:
            guard CephLauncher.isInstalled() else {
                throw BenchmarkFailure("Ceph is not installed: apt-get install -y \(CephLauncher.packages)")
            }
            Progress.say("starting a single-node Ceph with its RADOS Gateway")
            // Room for every client's copy of the large file and the small files, in memory.
            let store = Int64(options.sizeMiB) * 1_048_576 * 6 + 1_073_741_824
            let server = try await CephLauncher.start(storeBytes: store)
            let base =
                server.endpoint.absoluteString.hasSuffix("/")
                ? String(server.endpoint.absoluteString.dropLast()) : server.endpoint.absoluteString
            let endpoint = MockEndpoint(
                provider: .s3Ceph, baseURL: base, accessToken: server.secretAccessKey, user: server.accessKeyID,
                caFile: "")
            try await createBucket(endpoint)
            let rclone = RcloneClient(
                processes: processes, provider: .s3Ceph, workspace: workspace,
                remoteSettings: [
                    "type": "s3", "provider": "Ceph", "endpoint": base, "access_key_id": server.accessKeyID,
                    "secret_access_key": server.secretAccessKey, "region": "us-east-1", "force_path_style": "true",
                ])
            return ServerRun(
                options: options, executable: executable, workspace: workspace, processes: processes,
                endpoint: endpoint, rclone: rclone, curl: nil, rclonePrefix: StratusClients.s3Bucket)
        case .webdav:
            guard WebDAVServerLauncher.isInstalled(.apache) else {
                throw BenchmarkFailure("Apache with mod_dav is not installed: apt-get install -y apache2")
            }
            Progress.say("starting Apache httpd with mod_dav")
            let directory = workspace.appendingPathComponent("apache")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let user = "bench"
            let server = try await WebDAVServerLauncher.start(.apache, in: directory, user: user, password: secret)
            let folder = "bench"
            let local = server.root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            chmod(local.path, 0o777)
            let root =
                server.url.absoluteString.hasSuffix("/") ? server.url.absoluteString : server.url.absoluteString + "/"
            let endpoint = MockEndpoint(
                provider: .webdav, baseURL: root + folder, accessToken: secret, user: user, caFile: "")
            let headerFile = workspace.appendingPathComponent("auth-webdav.txt")
            let basic = Data("\(user):\(secret)".utf8).base64EncodedString()
            try "Authorization: Basic \(basic)\n".write(to: headerFile, atomically: true, encoding: .utf8)
            let rclone = RcloneClient(
                processes: processes, provider: .webdav, workspace: workspace,
                remoteSettings: [
                    "type": "webdav", "vendor": "other", "url": root, "user": user,
                    "pass": try await RcloneClient.obscure(secret),
                ])
            return ServerRun(
                options: options, executable: executable, workspace: workspace, processes: processes,
                endpoint: endpoint, rclone: rclone,
                curl: CurlClient(
                    processes: processes, endpoint: endpoint, headerFile: headerFile, workspace: workspace),
                rclonePrefix: folder)
        case .dropbox, .drive, .onedrive:
            throw BenchmarkFailure("\(provider.rawValue) runs against stratus-mock")
        }
    }

    /// Creates the benchmark's bucket through Stratus (Ceph checks signatures, so it is a signed
    /// `CreateBucket`).
    private static func createBucket(_ endpoint: MockEndpoint) async throws {
        let http = try StratusHTTPClient()
        do {
            guard let service = try StratusClients.service(endpoint, http: http) as? S3Service else {
                throw BenchmarkFailure("no S3 service for \(endpoint.baseURL)")
            }
            try await service.createBucket()
        } catch {
            await http.shutdown()
            throw error
        }
        await http.shutdown()
    }
}
