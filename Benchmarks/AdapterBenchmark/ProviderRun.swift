import BenchmarkSupport
import Foundation
import StratusDrive

/// Every measurement against one provider's mock, in order: large transfers, small uploads
/// (Dropbox: ``DropboxSmallFiles``, with write contention on and off), the change feed, then the
/// mock's own capacity.
struct ProviderRun {
    let options: BenchmarkOptions
    let executable: String
    /// The `stratus-mock` executable, for Dropbox's second mock (write contention off).
    let mockExecutable: String
    let workspace: URL
    let processes: MeasuredProcess
    let mock: MockProcess
    /// `files/upload`'s limit: one Dropbox upload request carries at most 150 MiB.
    static let dropboxSingleRequestLimit: Int64 = 150 * 1_048_576
    /// Graph's simple upload (`PUT .../content`) takes at most 250 MB; curl's OneDrive upload
    /// beyond it uses the 150 MiB source, as Dropbox's does.
    static let oneDriveSimpleUploadLimit: Int64 = 250_000_000

    private var endpoint: MockEndpoint { mock.endpoint }
    private var provider: Provider { endpoint.provider }
    private var title: String { provider.title }

    func measureAll(source: URL, cappedSource: URL?, hashes: SourceHashes) async throws -> [ResultRow] {
        let headerFile = workspace.appendingPathComponent("auth-\(provider.rawValue).txt")
        try "Authorization: Bearer \(endpoint.accessToken)\n".write(to: headerFile, atomically: true, encoding: .utf8)
        let curl = CurlClient(processes: processes, endpoint: endpoint, headerFile: headerFile, workspace: workspace)
        var rows: [ResultRow] = []
        let size = options.sizeMiB
        let sizeBytes = options.sizeBytes

        // 1. The large file: Stratus's upload also puts the file the downloads read.
        Progress.say("\(title): upload \(size) MiB with Stratus")
        let stratusUpload = await stratus(["upload", source.path, "big.bin"], label: "upload")
        let bigID = (try? stratusUpload.get())?.report.fields["id"]
        let uploadFigure = rate(stratusUpload, bytes: sizeBytes)
        switch provider {
        case .dropbox where sizeBytes > Self.dropboxSingleRequestLimit,
            .onedrive where sizeBytes > Self.oneDriveSimpleUploadLimit:
            let limit = provider == .dropbox ? "150 MiB" : "250 MB"
            rows.append(
                ResultRow(
                    workload:
                        "\(title): upload \(size) MiB (Stratus: upload session; curl: one request cannot exceed \(limit))",
                    kind: .rate(unit: "MB/s"), stratus: uploadFigure, memoryGoalMiB: 64))
            if let cappedSource {
                let capped = Self.dropboxSingleRequestLimit
                Progress.say("\(title): upload 150 MiB with Stratus and with curl (raw, then hashed)")
                let ours = rate(
                    await stratus(["upload", cappedSource.path, "capped.bin"], label: "upload-capped"), bytes: capped)
                let peers = await curl.uploadPeers(
                    cappedSource, bytes: capped, remoteName: "curl-capped.bin",
                    check: hashes.check(for: provider, capped: true, executable: executable), label: "upload-capped")
                rows.append(
                    ResultRow(
                        workload: "\(title): upload 150 MiB", kind: .rate(unit: "MB/s"), stratus: ours, peers: peers,
                        memoryGoalMiB: 64))
            }
        default:
            Progress.say("\(title): upload \(size) MiB with curl (raw, then hashed)")
            let peers = await curl.uploadPeers(
                source, bytes: sizeBytes, remoteName: "curl-big.bin",
                check: hashes.check(for: provider, capped: false, executable: executable), label: "upload")
            rows.append(
                ResultRow(
                    workload: "\(title): upload \(size) MiB", kind: .rate(unit: "MB/s"), stratus: uploadFigure,
                    peers: peers, memoryGoalMiB: 64))
        }

        Progress.say("\(title): download \(size) MiB with Stratus and with curl (raw, then hashed and flushed)")
        let destination = workspace.appendingPathComponent("download.bin")
        let ours = rate(
            Figures.checkedSize(
                await stratus(["download", "big.bin", destination.path], label: "download"),
                file: destination, expected: sizeBytes), bytes: sizeBytes)
        let peers: [PeerResult]
        if let target = provider == .dropbox ? "/big.bin" : bigID {
            // OneDrive: the id; curl asks /items/{id}/content and follows the 302 without the token.
            peers = await curl.downloadPeers(
                target, to: destination, bytes: sizeBytes,
                check: hashes.check(for: provider, capped: false, executable: executable), label: "download")
        } else {
            peers = [
                PeerResult(
                    name: "curl", result: .failure(BenchmarkFailure("no file to download: Stratus's upload failed")))
            ]
        }
        rows.append(
            ResultRow(
                workload: "\(title): download \(size) MiB", kind: .rate(unit: "MB/s"), stratus: ours, peers: peers,
                memoryGoalMiB: 64))

        // 2. Many small files.
        if provider == .dropbox {
            rows += await DropboxSmallFiles(
                options: options, executable: executable, mockExecutable: mockExecutable, workspace: workspace,
                processes: processes, mock: mock
            ).rows()
        } else {
            rows.append(await smallFiles())
        }

        // 3. The change feed.
        rows.append(await changeFeed(anchor: bigID ?? "missing"))

        // 4. What the mock itself sustains.
        let target = provider == .dropbox ? "/big.bin" : (bigID ?? "missing")
        let requests = 5000
        let clients = 16
        Progress.say("\(title): mock capacity, \(requests) metadata requests \(clients) at once")
        let rpc = perSecond(await stratus(["rpc", String(requests), String(clients), target], label: "capacity-rpc"))
        rows.append(
            ResultRow(
                workload: "\(title) mock: \(requests) metadata requests, \(clients) at once (bare StratusHTTPClient)",
                kind: .rate(unit: "req/s"), stratus: rpc))
        let pulls = 4
        Progress.say("\(title): mock capacity, \(pulls) downloads of \(size) MiB at once")
        let pull = rate(
            await stratus(["pull", String(pulls), String(pulls), target], label: "capacity-pull"),
            bytes: Int64(pulls) * sizeBytes)
        rows.append(
            ResultRow(
                workload:
                    "\(title) mock: \(pulls) downloads of \(size) MiB at once, bodies discarded (bare StratusHTTPClient)",
                kind: .rate(unit: "MB/s"), stratus: pull))
        return rows
    }

    /// `--files` uploads with Stratus and with the SDK script.
    private func smallFiles() async -> ResultRow {
        let files = options.files
        let kib = options.fileBytes / 1024
        Progress.say("\(title): \(files) uploads of \(kib) KiB with Stratus (\(options.concurrency) at once)")
        let smallOurs = perSecond(
            await stratus(
                ["small", String(files), String(options.concurrency), "small-stratus", String(options.fileBytes)],
                label: "small"))
        Progress.say("\(title): \(files) uploads of \(kib) KiB with the Python SDK (\(threadsText))")
        let smallTheirs = perSecond(
            await python(
                ["small", String(files), String(options.sdkThreads), "small-sdk", String(options.fileBytes)],
                label: "small"))
        return ResultRow(
            workload:
                "\(title): \(files) uploads of \(kib) KiB (Stratus \(options.concurrency) at once; SDK \(threadsText))",
            kind: .rate(unit: "files/s"), stratus: smallOurs,
            peers: [PeerResult(name: sdkName, result: smallTheirs, ratioGoal: 5)])
    }

    private func changeFeed(anchor: String) async -> ResultRow {
        let entries = options.feedEntries
        var row = ResultRow(
            workload: "\(title): read a change feed of \(entries) new files", kind: .duration, stratus: nil,
            memoryGoalMiB: 64)
        do {
            let token = try await stratus(["token"], label: "feed-token").get().report.fields["token"] ?? ""
            // The provider's own cursor is the token's last part ("v1:<issued>:<cursor>"; OneDrive's
            // token is "v1:<deltaLink>").
            let parts = token.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw BenchmarkFailure("unexpected change token shape") }
            let cursor = provider == .onedrive ? String(token.dropFirst(3)) : String(parts[2])
            Progress.say("\(title): filling the change feed with \(entries) files (bare HTTP client, 32 at once)")
            let fill = try await stratus(["fill", String(entries), "32", anchor], label: "feed-fill").get().report
            Progress.say(
                "\(title): filled in \(String(format: "%.1f", fill.seconds ?? 0)) s; reading it with Stratus and with the SDK"
            )
            let ours = await stratus(["feed", token], label: "feed")
            // The Drive SDK asks for the same fields as Stratus: what a client needs to follow files.
            let fields = provider == .drive ? [DriveService.changeFields] : []
            let theirs = await python(["feed", cursor] + fields, label: "feed")
            row.stratus = duration(ours)
            row.peers = [PeerResult(name: sdkName, result: duration(theirs), ratioGoal: 2)]
            let counts = [("Stratus", ours), (sdkName, theirs)].compactMap { name, outcome in
                (try? outcome.get())?.report.count.map { "\(name) \($0)" }
            }
            row.workload += " (changes read: \(counts.joined(separator: ", ")))"
        } catch {
            row.stratus = .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))
        }
        return row
    }

    private var sdkName: String {
        switch provider {
        case .dropbox: "dropbox SDK"
        case .onedrive: "msgraph-sdk"
        default: "google-api-python-client"
        }
    }
    private var threadsText: String { options.sdkThreads == 1 ? "sequential" : "\(options.sdkThreads) threads" }

    private func stratus(_ arguments: [String], label: String) async -> Result<ProcessOutcome, BenchmarkFailure> {
        await StratusRunner(processes: processes, executable: executable, endpoint: endpoint).run(
            arguments, label: label)
    }

    private func python(_ arguments: [String], label: String) async -> Result<ProcessOutcome, BenchmarkFailure> {
        let interpreter =
            switch provider {
            case .dropbox: options.dropboxPython
            case .onedrive: options.onedrivePython
            default: options.drivePython
            }
        let script = workspace.appendingPathComponent("\(provider.rawValue)_sdk.py").path
        return await attempt("\(sdkName) \(arguments[0])") {
            // requests lets these override the CA the session is given; as on a machine without them.
            try await processes.run(
                interpreter, [script] + arguments, environment: endpoint.environment,
                removing: ["REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"],
                label: "\(provider.rawValue)-sdk-\(label)"
            ).checked(sdkName)
        }
    }

    private func attempt(_ what: String, _ body: () async throws -> ProcessOutcome) async -> Result<
        ProcessOutcome, BenchmarkFailure
    > {
        do {
            return .success(try await body())
        } catch {
            Progress.say("  \(what) failed: \(error)")
            return .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))
        }
    }
}

extension ProviderRun {
    func rate(_ outcome: Result<ProcessOutcome, BenchmarkFailure>, bytes: Int64) -> Result<Figure, BenchmarkFailure> {
        Figures.rate(outcome, bytes: bytes)
    }

    func perSecond(_ outcome: Result<ProcessOutcome, BenchmarkFailure>) -> Result<Figure, BenchmarkFailure> {
        Figures.perSecond(outcome)
    }

    func duration(_ outcome: Result<ProcessOutcome, BenchmarkFailure>) -> Result<Figure, BenchmarkFailure> {
        Figures.duration(outcome)
    }
}
