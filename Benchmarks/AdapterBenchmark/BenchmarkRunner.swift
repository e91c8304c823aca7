import Foundation

/// The benchmark: writes the source files and the SDK scripts, then for each provider starts
/// its mock, runs every measurement against it and stops it; prints one table at the end.
struct BenchmarkRunner {
    let options: BenchmarkOptions

    /// - Returns: Whether every measurement ran.
    func run() async throws -> Bool {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let mock = try MeasuredProcess.resolve(options.mockExecutable)
        let machine = MachineInfo.describe()
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
        try PythonScripts.dropbox.write(
            to: workspace.appendingPathComponent("dropbox_sdk.py"), atomically: true, encoding: .utf8)
        try PythonScripts.drive.write(
            to: workspace.appendingPathComponent("drive_sdk.py"), atomically: true, encoding: .utf8)

        var table = ResultTable()
        var mockMemory: [String] = []
        for provider in Provider.allCases {
            try Task.checkCancellation()
            Progress.say("starting stratus-mock \(provider.rawValue)\(provider.servesTLS ? " --tls" : "")")
            let server = try await MockProcess(
                provider, executable: mock,
                dataDirectory: workspace.appendingPathComponent("mock-\(provider.rawValue)"), logFolder: logs)
            defer { server.stop() }
            let run = ProviderRun(
                options: options, executable: executable, workspace: workspace,
                processes: MeasuredProcess(logFolder: logs), mock: server)
            table.rows += try await run.measureAll(source: source, cappedSource: capped)
            if let kib = server.peakRSSKiB { mockMemory.append("\(provider.rawValue) \(kib / 1024) MiB") }
        }

        let header = [
            "Stratus adapters vs their peers, against stratus-mock on 127.0.0.1 (every figure from this run)",
            "",
            "machine: \(machine)",
        ]
        let notes = [
            "MB/s = 10^6 bytes/s. Each client runs in a process of its own: Stratus (this executable as a child) and the",
            "SDK scripts time themselves from client creation to the end (Python's imports excluded) and report their own",
            "VmHWM; curl is timed from its start to its exit and its VmHWM is sampled every ~10 ms. Each mock is",
            "`stratus-mock <provider>` in a process of its own (its peak RSS: \(mockMemory.joined(separator: ", "))): Dropbox over",
            "HTTPS (`--tls`; its SDK speaks nothing else), Drive over plain HTTP for every client (over `--tls` the Drive mock's",
            "resumable-upload Location says http://, so no resumable upload can finish there).",
            "Each figure is one run. Stratus uses its default configuration (Drive: page size 1000, as the SDK run asks).",
            "Stratus's download checks the provider's content hash and fsyncs the file before renaming it into place; curl",
            "does neither. curl uploads with --upload-file -X POST (streamed; --data-binary @file would read the file",
            "into memory first). A Dropbox upload request carries at most 150 MiB, so the Stratus/curl upload comparison",
            "for Dropbox uses 150 MiB when --size-mib is larger; Stratus's full-size upload (an upload session) is shown",
            "on its own. Downloads were checked by size. The change feed holds --feed-entries files created just before",
            "(one create request each from a bare HTTP client, 32 at once); the Drive SDK loop is changes().list(pageSize=1000) until no nextPageToken, the",
            "Dropbox one files_list_folder_continue until has_more is false; the ratio there is SDK time / Stratus time.",
            "Mock rows: a bare StratusHTTP client, no adapter on top, to show the mock is not the limit above.",
        ]
        print(table.render(header: header, notes: notes))
        return table.rows.allSatisfy { row in
            if case .failure? = row.stratus { return false }
            if case .failure? = row.peer { return false }
            return true
        }
    }
}
