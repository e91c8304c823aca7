import BenchmarkSupport
import Foundation

/// Dropbox's small-file rows (issue 29): `--files` uploads of 4 KiB against the mock with its
/// write contention on (the main mock, the mock's default) and, for reference, off (a second
/// `stratus-mock dropbox --no-write-contention`, started for its row and stopped after it).
///
/// Each row has Stratus with batch commits (its default) `--concurrency` at once and
/// `--dropbox-batch-concurrency` at once, Stratus with single commits (`files/upload` per file,
/// as before batching), the official SDK's single-commit loop (`files_upload`, `--sdk-threads`),
/// and with contention on `rclone copy --dropbox-batch-mode sync` (``DropboxRclone``). After each client its folder is listed with
/// Stratus (`child count`): the goal column says how many of the files are there.
struct DropboxSmallFiles {
    let options: BenchmarkOptions
    let executable: String
    let mockExecutable: String
    let workspace: URL
    let processes: MeasuredProcess
    /// The main mock: contention on.
    let mock: MockProcess

    func rows() async -> [ResultRow] {
        var rows: [ResultRow] = []
        for contention in options.dropboxContention {
            if contention {
                rows.append(await row(against: mock, contention: true))
                continue
            }
            Progress.say("starting a second stratus-mock dropbox --tls --no-write-contention")
            do {
                let reference = try await MockProcess(
                    .dropbox, executable: mockExecutable,
                    dataDirectory: workspace.appendingPathComponent("mock-dropbox-no-contention"),
                    logFolder: processes.logFolder, extraArguments: ["--no-write-contention"],
                    logName: "dropbox-no-contention")
                defer { reference.stop() }
                rows.append(await row(against: reference, contention: false))
            } catch {
                rows.append(
                    ResultRow(
                        workload: title(contention: false), kind: .rate(unit: "files/s"),
                        stratus: .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))))
            }
        }
        return rows
    }

    private func title(contention: Bool) -> String {
        let threads = options.sdkThreads == 1 ? "sequential" : "\(options.sdkThreads) threads"
        return "Dropbox, write contention \(contention ? "on" : "off (reference)"): \(options.files) uploads of"
            + " \(options.fileBytes / 1024) KiB (Stratus \(options.concurrency) at once; SDK \(threads))"
    }

    private func row(against server: MockProcess, contention: Bool) async -> ResultRow {
        let setting = contention ? "on" : "off"
        let files = options.files
        let stratus = StratusRunner(processes: processes, executable: executable, endpoint: server.endpoint)
        let single = StratusRunner(
            processes: processes, executable: executable, endpoint: server.endpoint,
            environment: [StratusClients.singleCommitsVariable: "single"])
        let banner = server.writeContention ?? "not reported"
        Progress.say("Dropbox (the mock says write contention: \(banner))")

        func small(_ runner: StratusRunner, _ folder: String, _ label: String, concurrency: Int? = nil) async
            -> Result<ProcessOutcome, BenchmarkFailure>
        {
            await runner.run(
                [
                    "small", String(files), String(concurrency ?? options.concurrency), folder,
                    String(options.fileBytes), "keep-going",
                ], label: "\(label)-contention-\(setting)")
        }

        Progress.say("Dropbox, contention \(setting): \(files) uploads with Stratus, batch commits")
        let batched = await small(stratus, "small-stratus-batch", "small-batch")
        let batchedCount = await count(stratus, "small-stratus-batch", setting)
        Progress.say("Dropbox, contention \(setting): \(files) uploads with Stratus, single commits")
        let singly = await small(single, "small-stratus-single", "small-single")
        let singleCount = await count(stratus, "small-stratus-single", setting)
        Progress.say("Dropbox, contention \(setting): \(files) uploads with the Python SDK")
        let sdk = await python(
            ["small", String(files), String(options.sdkThreads), "small-sdk", String(options.fileBytes)],
            endpoint: server.endpoint, label: "small-contention-\(setting)")
        let sdkCount = await count(stratus, "small-sdk", setting)
        let wide = options.dropboxBatchConcurrency
        var wideLine: PeerResult?
        if wide > 0, wide != options.concurrency {
            Progress.say(
                "Dropbox, contention \(setting): \(files) uploads with Stratus, batch commits, \(wide) at once")
            let outcome = await small(stratus, "small-stratus-batch-\(wide)", "small-batch-\(wide)", concurrency: wide)
            let listed = await count(stratus, "small-stratus-batch-\(wide)", setting)
            let figure = Figures.perSecond(outcome)
            var wideChecks = checks(outcome, listed: listed, goal: contention)
            // This line's own ratio to the SDK, with the same goal as the row's.
            if case .success(let ours) = figure, case .success(let theirs) = Figures.perSecond(sdk) {
                let ratio = ours.value / theirs.value
                let text = String(format: ratio >= 10 ? "%.0f×" : "%.2f×", ratio)
                wideChecks.insert(
                    contention ? "\(text) the SDK, ≥ 5×: \(ratio >= 5 ? "met" : "**not met**")" : "\(text) the SDK",
                    at: 0)
            }
            wideLine = PeerResult(name: "Stratus, batch commits, \(wide) at once", result: figure, checks: wideChecks)
        }

        var row = ResultRow(
            workload: title(contention: contention), kind: .rate(unit: "files/s"),
            stratus: Figures.perSecond(batched))
        row.stratusName = "Stratus, batch commits"
        row.stratusChecks = checks(batched, listed: batchedCount, goal: contention)
        row.peers = [
            PeerResult(
                name: "Stratus, single commits", result: Figures.perSecond(singly),
                checks: checks(singly, listed: singleCount, goal: false)),
            PeerResult(
                name: "dropbox SDK, single commits", result: Figures.perSecond(sdk), ratioGoal: contention ? 5 : nil,
                checks: checks(sdk, listed: sdkCount, goal: false)),
        ]
        if let wideLine { row.peers.insert(wideLine, at: 0) }
        if contention {
            row.peers += await rclonePeers(server, stratus: stratus)
        }
        return row
    }

    /// rclone's lines: `copy` of a local folder of the same files, batch mode sync, with its
    /// default `--transfers 4` and with `--transfers` equal to Stratus's concurrency.
    private func rclonePeers(_ server: MockProcess, stratus: StratusRunner) async -> [PeerResult] {
        let transfers = Array(Set([4, options.concurrency])).sorted()
        func name(_ count: Int) -> String {
            "rclone copy --dropbox-batch-mode sync --transfers \(count)\(count == 4 ? " (default)" : "")"
        }
        let rclone: DropboxRclone
        do {
            Progress.say("Dropbox: starting the CONNECT proxy for rclone")
            rclone = try await DropboxRclone(
                mock: server, executable: executable, workspace: workspace, processes: processes)
        } catch {
            let failure = error as? BenchmarkFailure ?? BenchmarkFailure("\(error)")
            Progress.say("  rclone could not be set up: \(failure)")
            return transfers.map { PeerResult(name: name($0), result: .failure(failure), ratioGoal: 1) }
        }
        defer { rclone.stop() }
        var peers: [PeerResult] = []
        do {
            let folder = try writeSmallFiles()
            for count in transfers {
                let remote = "small-rclone-\(count)"
                Progress.say("Dropbox, contention on: the same with \(name(count))")
                let outcome = await rclone.client.run(
                    rclone.arguments + ["copy", folder.path, "bench:\(remote)", "--transfers", String(count)],
                    label: "small-\(count)")
                let listed = await self.count(stratus, remote, "on")
                peers.append(
                    PeerResult(
                        name: name(count), result: Figures.perSecond(outcome, count: options.files), ratioGoal: 1,
                        checks: checks(outcome, listed: listed, goal: false)))
            }
        } catch {
            let failure = error as? BenchmarkFailure ?? BenchmarkFailure("\(error)")
            peers = transfers.map { PeerResult(name: name($0), result: .failure(failure), ratioGoal: 1) }
        }
        return peers
    }

    /// How many files are at or below a folder, listed with Stratus; `nil` when the listing failed.
    private func count(_ stratus: StratusRunner, _ folder: String, _ setting: String) async -> Int? {
        (try? await stratus.run(["count", folder], label: "count-\(folder)-contention-\(setting)").get())?.report.count
    }

    /// The goal column's file checks: uploads the client reported failed, and the files listed
    /// afterwards; with `goal`, the issue's "zero failed files", met or not.
    private func checks(_ outcome: Result<ProcessOutcome, BenchmarkFailure>, listed: Int?, goal: Bool) -> [String] {
        let expected = options.files
        var checks: [String] = []
        let failed = (try? outcome.get())?.report.fields["failed"].flatMap { Int($0) } ?? 0
        if failed > 0 { checks.append("\(failed) uploads failed") }
        let listing = listed.map { "\($0)/\(expected) files listed" } ?? "files not listed"
        if goal {
            let met = failed == 0 && listed == expected
            checks.append("0 failed files (\(listing)): \(met ? "met" : "**not met**")")
        } else {
            checks.append(listed == expected ? listing : "**\(listing)**")
        }
        return checks
    }

    private func python(_ arguments: [String], endpoint: MockEndpoint, label: String) async -> Result<
        ProcessOutcome, BenchmarkFailure
    > {
        let script = workspace.appendingPathComponent("dropbox_sdk.py").path
        do {
            // requests lets these override the CA the session is given; as on a machine without them.
            return .success(
                try await processes.run(
                    options.dropboxPython, [script] + arguments, environment: endpoint.environment,
                    removing: ["REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"], label: "dropbox-sdk-\(label)"
                ).checked("dropbox SDK"))
        } catch {
            Progress.say("  dropbox SDK \(arguments[0]) failed: \(error)")
            return .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))
        }
    }

    /// `--files` files of `--file-bytes` each (the bytes Stratus's children upload), for rclone.
    private func writeSmallFiles() throws -> URL {
        let folder = workspace.appendingPathComponent("small-dropbox")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let content = Data((0..<options.fileBytes).map { UInt8($0 % 251) })
        for index in 0..<options.files {
            try content.write(to: folder.appendingPathComponent("\(index).bin"))
        }
        return folder
    }
}
