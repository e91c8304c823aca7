import BenchmarkSupport
import Foundation
import Stratus
import StratusSync
import SyncSimulation

/// The three phases on one remote.
struct SyncBenchmark {
    let options: BenchmarkOptions
    let inputs: InputFiles
    let service: ObservedService
    let folder: URL
    let remote: String

    struct Result {
        var firstPushItemsPerSecond: Double
        var incrementalRequests: Int
        var incrementalPullRequests: Int
    }

    struct Value: Codable {
        var name: String
        var level: Int
        var payload: String
    }

    func run() async throws -> Result {
        let configuration = SyncConfiguration(maximumConcurrentTransfers: options.concurrency)
        let writer = try SyncStore(
            folder: folder.appending(path: "device-a"), service: service, configuration: configuration)
        let reader = try SyncStore(
            folder: folder.appending(path: "device-b"), service: service, configuration: configuration)
        let payload = String(repeating: "x", count: 960)

        // Local writes: one transaction per 1,000 records.
        let local = try await Measured.run {
            var start = 0
            while start < options.records {
                var batch = SyncBatch()
                for index in start..<min(start + 1000, options.records) {
                    let files = index < options.files ? ["save": inputs.urls[index]] : nil
                    try batch.save(
                        Value(name: "record \(index)", level: index, payload: payload),
                        as: RecordKey(type: "save", id: "r\(index)"), files: files)
                }
                try writer.write(batch)
                start += 1000
            }
        }
        print(
            row(
                "local writes (\(options.records / 1000 + 1) transactions)", local, records: options.records,
                items: options.records, bytes: 0, requests: 0))

        service.resetCounts()
        var report = SyncReport()
        let push = try await Measured.run { report = try await writer.sync() }
        if report.pushed.count != options.records || !report.isClean {
            // Shown, not thrown: a push that lost items is the figure this row exists for.
            let firstFailure = report.failures.first.map { "\($0.key): \($0.error)" } ?? ""
            print(
                ReportTables.phases.markdownRow([
                    remote, "first push: FAILED", FigureText.seconds(push.seconds),
                    "\(report.pushed.count) of \(options.records) records pushed, \(report.failures.count) failed: \(firstFailure)",
                    "", "", "\(service.totalCalls)", "",
                ]))
        }
        try check(report, pushed: options.records)
        let items = options.records + options.files
        let bytes = Int64(options.records) * 1024 + Int64(options.files) * Int64(options.fileKiB) * 1024
        print(
            row("first push", push, records: options.records, items: items, bytes: bytes, requests: service.totalCalls))

        service.resetCounts()
        let pull = try await Measured.run { report = try await reader.sync() }
        guard report.pulled.count == options.records, report.isClean else {
            throw BenchmarkFailure(
                "the second device pulled \(report.pulled.count) of \(options.records): \(report.failures.prefix(3))")
        }
        print(
            row(
                "second device's first pull", pull, records: options.records, items: items, bytes: bytes,
                requests: service.totalCalls))

        // Incremental: the writer changes `changes` records (a tenth with a new file).
        var batch = SyncBatch()
        for index in 0..<options.changes {
            let target = (index * 97) % options.records
            let files = index % 10 == 0 ? ["save": inputs.urls[(index + 1) % inputs.urls.count]] : nil
            try batch.save(
                Value(name: "changed \(index)", level: -index, payload: payload),
                as: RecordKey(type: "save", id: "r\(target)"), files: files)
        }
        try writer.write(batch)
        service.resetCounts()
        let incremental = try await Measured.run { report = try await writer.sync() }
        try check(report, pushed: options.changes)
        let writerRequests = service.totalCalls
        print(
            row(
                "incremental push of \(options.changes) changes", incremental, records: options.changes,
                items: options.changes, bytes: Int64(options.changes) * 1024, requests: writerRequests))
        service.resetCounts()
        let incrementalPull = try await Measured.run { report = try await reader.sync() }
        guard report.pulled.count == options.changes else {
            throw BenchmarkFailure("the reader pulled \(report.pulled.count) of \(options.changes) changes")
        }
        let readerRequests = service.totalCalls
        print(
            row(
                "incremental pull of \(options.changes) changes", incrementalPull, records: options.changes,
                items: options.changes, bytes: Int64(options.changes) * 1024, requests: readerRequests))
        return Result(
            firstPushItemsPerSecond: Double(items) / push.seconds,
            incrementalRequests: writerRequests,
            incrementalPullRequests: readerRequests
        )
    }

    private func check(_ report: SyncReport, pushed: Int) throws {
        guard report.pushed.count == pushed, report.isClean else {
            throw BenchmarkFailure("pushed \(report.pushed.count) of \(pushed): \(report.failures.prefix(3))")
        }
    }

    private func row(_ phase: String, _ measured: Measured, records: Int, items: Int, bytes: Int64, requests: Int)
        -> String
    {
        measured.row(remote: remote, phase: phase, records: records, items: items, bytes: bytes, requests: requests)
    }
}

/// The peer: every item uploaded with a plain `Service.upload`, as `stratus put` does, with
/// the same concurrency.
enum DirectUpload {
    struct Result {
        var measured: Measured
        var items: Int
        var bytes: Int64
        var requests: Int
        var itemsPerSecond: Double { Double(items) / measured.seconds }

        func row(remote: String, phase: String) -> String {
            measured.row(remote: remote, phase: phase, records: 0, items: items, bytes: bytes, requests: requests)
        }
    }

    static func run(service: ObservedService, inputs: InputFiles, records: Int, concurrency: Int) async throws -> Result
    {
        let document = Data(String(repeating: "y", count: 1024).utf8)
        let jobs: [(UploadSource, String)] =
            (0..<records).map { (.bytes(document), "records/r\($0).json") }
            + inputs.urls.enumerated().map { (.file($1), "files/f\($0)") }
        let measured = try await Measured.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                func start() throws {
                    let (source, path) = jobs[next]
                    next += 1
                    let remotePath = try RemotePath(path)
                    group.addTask {
                        _ = try await service.upload(
                            from: source, to: remotePath, options: UploadOptions(precondition: .mustNotExist))
                    }
                }
                while next < min(concurrency, jobs.count) { try start() }
                while try await group.next() != nil {
                    if next < jobs.count { try start() }
                }
            }
        }
        let bytes = Int64(records) * 1024 + inputs.totalBytes
        return Result(measured: measured, items: jobs.count, bytes: bytes, requests: service.totalCalls)
    }
}
