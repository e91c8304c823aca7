import BenchmarkSupport
import Foundation

/// The measurements against a real server, with rclone as a peer: S3 against moto, WebDAV
/// against Apache (there curl too, raw and with the same guarantees). In order: the large file
/// up and down, many small files, a recursive listing of everything written.
struct ServerRun {
    let options: BenchmarkOptions
    let executable: String
    let workspace: URL
    let processes: MeasuredProcess
    let endpoint: MockEndpoint
    let rclone: RcloneClient
    /// WebDAV only: curl with Basic authentication from a header file.
    let curl: CurlClient?
    /// Where rclone's paths start: S3: the bucket; WebDAV: the benchmark's folder.
    let rclonePrefix: String

    private var provider: Provider { endpoint.provider }
    private var title: String { provider.title }
    private var stratusRunner: StratusRunner {
        StratusRunner(processes: processes, executable: executable, endpoint: endpoint)
    }

    func measureAll(source: URL, hashes: SourceHashes) async throws -> [ResultRow] {
        var rows: [ResultRow] = []
        let size = options.sizeMiB
        let sizeBytes = options.sizeBytes
        let check = hashes.check(for: provider, capped: false, executable: executable)

        // 1. The large file, each client uploading its own copy and downloading it back (so that
        // rclone finds the MD5 it records at upload and checks its download against it).
        Progress.say("\(title): upload \(size) MiB with Stratus, rclone\(curl == nil ? "" : " and curl")")
        let ours = Figures.rate(
            await stratusRunner.run(["upload", source.path, "big.bin"], label: "upload"), bytes: sizeBytes)
        var peers: [PeerResult] = []
        if let curl {
            peers += await curl.uploadPeers(
                source, bytes: sizeBytes, remoteName: "curl-big.bin", check: check, label: "upload")
        }
        let rcloneBig = RcloneClient.remote("\(rclonePrefix)/rclone/big.bin")
        peers.append(
            PeerResult(
                name: "rclone copyto",
                result: Figures.rate(
                    await rclone.run(["copyto", source.path, rcloneBig], label: "upload"), bytes: sizeBytes),
                ratioGoal: 1))
        rows.append(
            ResultRow(
                workload: "\(title): upload \(size) MiB", kind: .rate(unit: "MB/s"), stratus: ours, peers: peers,
                memoryGoalMiB: 64))

        Progress.say("\(title): download \(size) MiB with Stratus, rclone\(curl == nil ? "" : " and curl")")
        let destination = workspace.appendingPathComponent("download.bin")
        let downloaded = Figures.rate(
            Figures.checkedSize(
                await stratusRunner.run(["download", "big.bin", destination.path], label: "download"),
                file: destination, expected: sizeBytes), bytes: sizeBytes)
        peers = []
        if let curl {
            peers += await curl.downloadPeers(
                "big.bin", to: destination, bytes: sizeBytes, check: check, label: "download")
        }
        let rcloneDownload = Figures.checkedSize(
            await rclone.run(["copyto", rcloneBig, destination.path], label: "download"), file: destination,
            expected: sizeBytes)
        peers.append(
            PeerResult(name: "rclone copyto", result: Figures.rate(rcloneDownload, bytes: sizeBytes), ratioGoal: 1))
        rows.append(
            ResultRow(
                workload: "\(title): download \(size) MiB", kind: .rate(unit: "MB/s"), stratus: downloaded,
                peers: peers, memoryGoalMiB: 64))

        // 2. Many small files: rclone copies a local folder of them.
        let files = options.files
        let kib = options.fileBytes / 1024
        let folder = try writeSmallFiles()
        Progress.say("\(title): \(files) uploads of \(kib) KiB with Stratus (\(options.concurrency) at once)")
        let small = Figures.perSecond(
            await stratusRunner.run(
                ["small", String(files), String(options.concurrency), "small-stratus", String(options.fileBytes)],
                label: "small"))
        peers = []
        for transfers in Array(Set([4, options.concurrency])).sorted() {
            Progress.say("\(title): the same with rclone copy --transfers \(transfers)")
            let outcome = await rclone.run(
                [
                    "copy", folder.path, RcloneClient.remote("\(rclonePrefix)/small-rclone-\(transfers)"),
                    "--transfers", String(transfers),
                ], label: "small-\(transfers)")
            peers.append(
                PeerResult(
                    name: "rclone copy --transfers \(transfers)\(transfers == 4 ? " (default)" : "")",
                    result: Figures.perSecond(outcome, count: files), ratioGoal: 1))
        }
        rows.append(
            ResultRow(
                workload: "\(title): \(files) uploads of \(kib) KiB (Stratus \(options.concurrency) at once)",
                kind: .rate(unit: "files/s"), stratus: small, peers: peers))

        // 3. A recursive listing of everything above: rclone's names only (`lsf`), and with what
        // Stratus's list returns for each file (size, time, hash: `lsjson --hash`; on S3 that means
        // a HEAD per object, as Stratus's list makes for the SHA-256 it keeps in the metadata).
        Progress.say("\(title): recursive listing with Stratus, rclone lsf -R and rclone lsjson -R --hash")
        let listed = await stratusRunner.run(["list"], label: "list")
        var counts = [(try? listed.get())?.report.count.map { "Stratus \($0)" }]
        peers = []
        let listings = [
            ("rclone lsf -R", ["lsf", "-R", "--files-only"], "lsf"),
            ("rclone lsjson -R --hash", ["lsjson", "-R", "--files-only", "--hash"], "lsjson"),
        ]
        for (name, arguments, label) in listings {
            let outcome = await rclone.run(arguments + [RcloneClient.remote(rclonePrefix)], label: "list-\(label)")
            let output = (try? outcome.get())?.standardOutput ?? ""
            let count =
                label == "lsf"
                ? output.split(separator: "\n").count : output.components(separatedBy: "\"Path\":").count - 1
            if case .success = outcome { counts.append("\(name) \(count)") }
            peers.append(PeerResult(name: name, result: Figures.duration(outcome), ratioGoal: 1))
        }
        rows.append(
            ResultRow(
                workload:
                    "\(title): recursive listing of every file (files listed: \(counts.compactMap { $0 }.joined(separator: ", ")))",
                kind: .duration, stratus: Figures.duration(listed), peers: peers))
        return rows
    }

    /// `--files` files of `--file-bytes` each (the bytes Stratus's children upload), for rclone.
    private func writeSmallFiles() throws -> URL {
        let folder = workspace.appendingPathComponent("small-\(provider.rawValue)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let content = Data((0..<options.fileBytes).map { UInt8($0 % 251) })
        for index in 0..<options.files {
            try content.write(to: folder.appendingPathComponent("\(index).bin"))
        }
        return folder
    }
}
