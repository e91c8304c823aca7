import BenchmarkSupport
import Foundation

/// Runs one tool on one workload against the server and checks what arrived.
struct ToolMeasurer {
    let options: BenchmarkOptions
    let executable: String
    let workspace: Workspace
    let logs: URL
    let baseURL: URL
    let source: URL
    let expectedDigest: String
    let counters: ServerCounters

    /// - Throws: `CancellationError` only; every other failure is an ``Outcome/failed(_:)``.
    func measure(_ workload: Workload, with tool: Tool, round: Int) async throws -> Outcome {
        do {
            return .measured(try await run(workload, with: tool, token: "\(tool.rawValue.lowercased())-\(round)"))
        } catch {
            try Task.checkCancellation()
            return .failed("\(error)")
        }
    }

    private func run(_ workload: Workload, with tool: Tool, token: String) async throws -> Measurement {
        switch workload {
        case .download: try await download(with: tool, token: token)
        case .upload: try await upload(with: tool, token: token)
        case .gets: try await gets(with: tool, token: token)
        }
    }

    private func download(with tool: Tool, token: String) async throws -> Measurement {
        let url = baseURL.appendingPathComponent("download/\(options.sizeBytes)")
        let destination = workspace.file("download-\(token).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        var (measurement, report) = try await execute(
            tool, label: "download-\(token)",
            curl: CurlCommands.download(url, to: destination),
            child: .download(url: url, destination: destination))
        measurement.flushSeconds = try FileFlush.seconds(toFlush: destination)

        let size = (try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value
        guard size == options.sizeBytes else {
            throw BenchmarkFailure(
                "the downloaded file has \(size.map(String.init) ?? "no") bytes, not \(options.sizeBytes)")
        }
        if tool == .stratus, report?.sha256 != expectedDigest {
            throw BenchmarkFailure(
                "StratusHTTP's in-flight SHA-256 \(report?.sha256 ?? "(none)") is not the expected \(expectedDigest)")
        }
        let fileDigest = try PatternContent.sha256Hex(ofFileAt: destination)
        guard fileDigest == expectedDigest else {
            throw BenchmarkFailure("the downloaded file's SHA-256 \(fileDigest) is not the expected \(expectedDigest)")
        }
        measurement.bytes = options.sizeBytes
        return measurement
    }

    private func upload(with tool: Tool, token: String) async throws -> Measurement {
        let url = baseURL.appendingPathComponent("upload/\(token)")
        var (measurement, _) = try await execute(
            tool, label: "upload-\(token)",
            curl: CurlCommands.upload(source, to: url),
            child: .upload(url: url, source: source))
        let received = counters.uploadedBytes(token: token)
        guard received == options.sizeBytes else {
            throw BenchmarkFailure("the server received \(received) bytes, not \(options.sizeBytes)")
        }
        measurement.bytes = received
        return measurement
    }

    private func gets(with tool: Tool, token: String) async throws -> Measurement {
        let url = baseURL.appendingPathComponent("small/\(token)")
        let configFile = workspace.file("curl-gets-\(token).conf")
        try CurlCommands.writeGetsConfig(to: configFile, url: url, count: options.requests)
        var (measurement, report) = try await execute(
            tool, label: "gets-\(token)",
            curl: CurlCommands.gets(configFile: configFile, concurrency: options.concurrency),
            child: .gets(url: url, count: options.requests, concurrency: options.concurrency))
        let served = counters.smallRequests(token: token)
        guard served == options.requests else {
            throw BenchmarkFailure("the server answered \(served) GETs, not \(options.requests)")
        }
        let expectedBytes = Int64(options.requests * BenchmarkOptions.smallBodyBytes)
        if let report, report.bytes != expectedBytes {
            throw BenchmarkFailure("the client received \(report.bytes) body bytes, not \(expectedBytes)")
        }
        measurement.bytes = expectedBytes
        measurement.requests = served
        return measurement
    }

    /// Runs the curl tool, or this executable as a child for a Swift client.
    /// - Returns: The measurement (curl: wall time and sampled peak memory; Swift clients: the
    ///   child's own timing and VmHWM; both: the process's CPU time) and the child's report.
    private func execute(_ tool: Tool, label: String, curl: [String], child workload: ClientWorkload) async throws -> (
        Measurement, WorkloadReport?
    ) {
        let client: SwiftClient
        switch tool {
        case .curl:
            let result = try await MeasuredProcess(logFolder: logs).run("curl", curl, label: "curl-\(label)")
            guard result.succeeded else { throw BenchmarkFailure("curl failed with \(result.failureDescription)") }
            let measurement = Measurement(
                seconds: result.wallSeconds, bytes: options.sizeBytes, requests: 1, cpuSeconds: result.cpuSeconds,
                peakRSSKiB: result.sampledPeakRSSKiB)
            return (measurement, nil)
        case .urlSession: client = .urlSession
        case .stratus: client = .stratus
        }
        let command = ChildCommand(client: client, workload: workload)
        let result = try await MeasuredProcess(logFolder: logs).run(
            executable, command.arguments, label: "\(client.rawValue)-\(label)")
        guard result.succeeded else {
            throw BenchmarkFailure("the child process failed with \(result.failureDescription)")
        }
        let report = try WorkloadReport(parsing: result.standardOutput)
        let measurement = Measurement(
            seconds: report.seconds, bytes: report.bytes, requests: report.requests, cpuSeconds: result.cpuSeconds,
            peakRSSKiB: report.peakRSSKiB ?? result.sampledPeakRSSKiB)
        return (measurement, report)
    }
}
