import BenchmarkSupport
import Foundation

/// The benchmark: writes the source files and the SDK scripts, then for each provider starts
/// its mock, runs every measurement against it and stops it; prints one table at the end.
struct BenchmarkRunner {
    let options: BenchmarkOptions

    /// - Returns: Whether every measurement ran.
    func run() async throws -> Bool {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var mock = options.mockExecutable
        if options.providers.contains(where: { $0 == .dropbox || $0 == .drive || $0 == .onedrive }) {
            mock = try MeasuredProcess.resolve(options.mockExecutable)
        }
        let machine = MachineInfo.current().summary
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stratus-adapter-benchmark-\(UUID().uuidString)")
        let logs = workspace.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }

        Progress.say("writing the \(options.sizeMiB) MiB source in \(workspace.path)")
        let source = workspace.appendingPathComponent("source.bin")
        try SourceFile.write(to: source, size: options.sizeBytes)
        var capped: URL?
        if options.sizeBytes > ProviderRun.dropboxSingleRequestLimit {
            let cappedSource = workspace.appendingPathComponent("source-150.bin")
            try SourceFile.write(to: cappedSource, size: ProviderRun.dropboxSingleRequestLimit)
            capped = cappedSource
        }
        Progress.say("hashing the sources (SHA-256, MD5, Dropbox content hash, QuickXorHash)")
        let hashes = try SourceHashes(source: source, cappedSource: capped)
        try PythonScripts.dropbox.write(
            to: workspace.appendingPathComponent("dropbox_sdk.py"), atomically: true, encoding: .utf8)
        try PythonScripts.drive.write(
            to: workspace.appendingPathComponent("drive_sdk.py"), atomically: true, encoding: .utf8)
        try PythonScripts.onedrive.write(
            to: workspace.appendingPathComponent("onedrive_sdk.py"), atomically: true, encoding: .utf8)

        var table = ResultTable()
        var mockMemory: [String] = []
        for provider in options.providers {
            try Task.checkCancellation()
            switch provider {
            case .dropbox, .drive, .onedrive:
                Progress.say("starting stratus-mock \(provider.rawValue)\(provider.servesTLS ? " --tls" : "")")
                // Dropbox: contention on (the mock's default), and a certificate rclone accepts too.
                let server = try await MockProcess(
                    provider, executable: mock,
                    dataDirectory: workspace.appendingPathComponent("mock-\(provider.rawValue)"), logFolder: logs,
                    extraArguments: provider == .dropbox ? DropboxRclone.hostArguments : [])
                defer { server.stop() }
                let run = ProviderRun(
                    options: options, executable: executable, mockExecutable: mock, workspace: workspace,
                    processes: MeasuredProcess(logFolder: logs), mock: server)
                table.rows += try await run.measureAll(source: source, cappedSource: capped, hashes: hashes)
                if let kib = server.peakRSSKiB { mockMemory.append("\(provider.rawValue) \(kib / 1024) MiB") }
            case .s3, .s3Ceph, .webdav:
                let run = try await ServerRuns.start(
                    provider, options: options, executable: executable, workspace: workspace,
                    processes: MeasuredProcess(logFolder: logs))
                table.rows += try await run.measureAll(source: source, hashes: hashes)
            }
        }

        let header = [
            "Stratus adapters vs their peers, against stratus-mock, moto, Ceph and Apache on 127.0.0.1 (every figure from this run)",
            "",
            "machine: \(machine)",
            "options: \(options.summary)",
        ]
        let notes = [
            "Each client runs in a process of its own and each workload is one run. MB/s = 10^6 bytes/s. The \"Stratus/client\"",
            "column is Stratus's figure over the client's on that line (for times: the client's time over Stratus's).",
            "",
            "Time: Stratus (this executable as a child) and the SDK scripts time themselves from client creation to the end",
            "(Python's imports excluded); curl and rclone are timed from their start to their exit.",
            "Client CPU: user + system time of the client's process and every process it ran (tee, the hasher, sync), from",
            "wait4's rusage when the client is reaped (it holds what the client waited for in turn); it includes start-up",
            "(a Swift process's, Python's imports). It is steadier than wall time when other work shares the machine.",
            "Server CPU: user + system time of the server's processes over the same span (stratus-mock; moto's Python",
            "process; Apache and its prefork workers, reaped ones included), and in parentheses that time as a share of one",
            "core over the client's wall time. moto serves from one Python interpreter (one core at most, the GIL): near 100%",
            "there means moto, not the client, sets the pace of that row; a line whose server used ≥ 85% of a core says",
            "\"server-bound\" in its goal column (stratus-mock and Apache can use both cores: for them it marks a busy",
            "server, not a hard limit).",
            "Peak RSS: the child's own VmHWM (Stratus, the SDKs); curl's and rclone's sampled every ~10 ms.",
            "",
            "Same guarantees: Stratus checks the provider's hash of every transfer (Dropbox content hash, Drive MD5, S3",
            "SHA-256 and MD5, WebDAV SHA-256) and fsyncs a download before renaming it into place. The raw curl line does",
            "neither. \"curl | HASH + fsync\" does both: a download runs `curl -o - | tee FILE | HASH` then `sync FILE`",
            "(fsync); an upload runs HASH over the source beside `curl --upload-file` and the provider's answer must report",
            "that hash (Dropbox content_hash, Drive md5Checksum; Apache reports none). The Dropbox content hash is computed",
            "by `stratus-adapter-benchmark child hash dropbox` (Stratus's own hasher). Every printed hash was checked",
            "against the source's. rclone checks MD5 on S3 (it records it at upload) but does not fsync; on WebDAV against",
            "Apache it has no hash to check. Each client downloads the copy it uploaded.",
            "",
            "Dropbox, Drive and OneDrive: each mock is `stratus-mock <provider>` in a process of its own"
                + (mockMemory.isEmpty ? "," : " (its peak RSS: \(mockMemory.joined(separator: ", "))),"),
            "Dropbox over HTTPS (`--tls`; its SDK speaks nothing else), Drive over plain HTTP for every client (over `--tls`",
            "the Drive mock's resumable-upload Location says http://). Stratus uses its default configuration (Drive: page",
            "size 1000, as the SDK run asks). curl uploads with --upload-file -X POST (streamed). A Dropbox upload request",
            "carries at most 150 MiB, so the Stratus/curl upload comparison for Dropbox uses 150 MiB when --size-mib is",
            "larger; Stratus's full-size upload (an upload session) is shown on its own. The change feed holds",
            "--feed-entries files created just before by a bare HTTP client, 32 requests at once (Drive: a create each;",
            "Dropbox: an upload session each, committed 1,000 per finish_batch_v2); the",
            "Drive SDK loop is changes().list(pageSize=1000, fields=F) until no nextPageToken, F being the fields Stratus",
            "asks (DriveService.changeFields: each file's name, parents, size, MD5, revision, time, trash state and",
            "properties, what a client needs to follow files); the Dropbox one",
            "files_list_folder_continue until has_more is false. Mock rows: a bare StratusHTTP client, no adapter on top.",
            "",
            "OneDrive: `stratus-mock onedrive --tls` (the Graph SDK's token provider only serves https URLs), its",
            "downloads and upload sessions on the mock's second (content) host; Stratus with its defaults (app folder,",
            "simple PUT up to 4 MiB, 10 MiB fragments above, page size 1000). curl uploads with one simple PUT",
            "(--upload-file) into the app folder, which Graph limits to 250 MB, so beyond that the Stratus/curl upload",
            "comparison uses the 150 MiB source; its downloads are two curls: GET /items/{id}/content with the token, whose",
            "302 Location (%{redirect_url}) a second curl fetches without it (the content host refuses a token). Its",
            "same-guarantees line hashes with QuickXorHash (`stratus-adapter-benchmark child hash quickxor`, Stratus's",
            "hasher, base64 as Graph reports it). msgraph-sdk (GraphServiceClient, default middleware, httpx, a static",
            "token for the Graph host, reached as localhost) uploads each small file with items[...].content.put and",
            "reads the feed from Stratus's delta link through @odata.nextLink, $top=1000 like Stratus. The feed's files",
            "are simple PUTs into feed/ of the app folder (32 at once, bare HTTP client). rclone's onedrive backend has",
            "no endpoint option (only its region's fixed Graph hosts), so it has no line here.",
            "",
            "Dropbox small files: the mock has its write contention on (its default: a commit holds a write slot 2 ms, a",
            "batch 10 ms + 0.1 ms per entry; a third overlapping commit or a second batch gets 429",
            "too_many_write_operations, Retry-After: 1); the \"off\" row runs against a second mock started with",
            "--no-write-contention. Stratus's batch commits are its default (CommitBatching.standard); its single commits",
            "set commitBatching nil (files/upload per file); the SDK loop commits one file per files_upload. Stratus's",
            "children count a failed upload and go on; after each client its folder is listed with Stratus, and the goal",
            "column says how many files it holds. rclone (contention on only) copies a local folder of the same files",
            "with --dropbox-batch-mode sync (its batch size is --transfers), reaching the mock under Dropbox's host names",
            "through a CONNECT proxy of this benchmark (HTTPS_PROXY, a process of its own whose CPU counts with the",
            "server's), --ca-cert with the mock's CA and a temporary RCLONE_CONFIG holding the mock's token.",
            "",
            "S3: moto's server (Mocks/MotoSupport), one versioned bucket; Stratus with its defaults (8 MiB parts above",
            "8 MiB, path-style addressing), rclone with its defaults (remote from RCLONE_CONFIG_BENCH_* variables: type s3,",
            "provider Other; single PUT up to 200 MiB, then 5 MiB parts, 4 at once). S3 (Ceph): the same clients against",
            "Ceph 16's RADOS Gateway (beast frontend) on a single-node cluster of this run (Mocks/CephSupport: a monitor, one",
            "OSD on memstore, so the data is in memory; cephx off), rclone with provider Ceph. Ceph's daemons are not bound",
            "to one Python interpreter, so its server CPU is that of three multi-threaded processes. WebDAV: Apache httpd 2.4 with mod_dav_fs",
            "(prefork, Mocks/WebDAVServers), Basic authentication; Stratus with locks on (its default), rclone with",
            "vendor=other. Small files: rclone copies a local folder of --files files (rclone's default --transfers 4,",
            "then Stratus's --concurrency); Stratus uploads the same bytes from memory. Listing: Stratus's list(root)",
            "(recursive; each file's size, time, version and hash: on S3 a HEAD per object for the SHA-256 kept in its",
            "metadata) against `rclone lsf -R --files-only` (names) and `rclone lsjson -R --files-only --hash` (size, time,",
            "hash: on S3 a HEAD per object for the modification time rclone keeps in its metadata) of the same root, after",
            "everything above was written. Apache's mod_dav_fs keeps dead properties in .DAV/ files that rclone lists and",
            "Stratus does not.",
        ]
        print(table.render(header: header, notes: notes))
        return !table.rows.contains { $0.failed }
    }
}
