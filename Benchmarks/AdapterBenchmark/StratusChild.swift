import BenchmarkSupport
import Foundation
import Stratus
import StratusDigest
import StratusHTTP

/// The child side: one workload through a Stratus service (or, for the mock's capacity, its
/// bare HTTP client), timed inside the process; the report goes to standard output.
///
///     child upload LOCAL-FILE REMOTE-PATH
///     child download REMOTE-PATH LOCAL-FILE
///     child small COUNT CONCURRENCY FOLDER BYTES [keep-going]
///     child count FOLDER (the files at or below FOLDER; 0 when it does not exist)
///     child token
///     child feed TOKEN
///     child fill COUNT CONCURRENCY DRIVE-FILE-ID (bare HTTP client)
///     child rpc COUNT CONCURRENCY FILE-ID-OR-PATH
///     child pull COUNT CONCURRENCY FILE-ID-OR-PATH
///     child list (every file, recursively, from the root)
///     child hash dropbox (standard input's Dropbox content hash, in hex, like sha256sum)
///     child hash quickxor (standard input's QuickXorHash, in base64 as Graph reports it)
///     child proxy PORT (a CONNECT proxy to 127.0.0.1:PORT until signalled: ConnectProxy)
///
/// `BENCH_DROPBOX_COMMITS=single` in the environment turns the Dropbox adapter's batch commits
/// off (`DropboxConfiguration.commitBatching` nil: one `files/upload` per small file).
enum StratusChild {
    static func run(_ arguments: [String]) async throws -> String {
        if arguments == ["hash", "dropbox"] { return Hex.encode(try hashStandardInput(DropboxContentHash())) + "  -" }
        if arguments == ["hash", "quickxor"] {
            return QuickXorHash.base64(try hashStandardInput(QuickXorHash())) + "  -"
        }
        if arguments.count == 2, arguments[0] == "proxy" {
            guard let port = UInt16(arguments[1]), port > 0 else {
                throw BenchmarkFailure("'\(arguments[1])' is not a port")
            }
            try ConnectProxy.serve(targetPort: port)
        }
        let endpoint = try MockEndpoint.fromEnvironment()
        let http = try StratusClients.http(endpoint)
        let service = try StratusClients.service(endpoint, http: http)
        let start = ContinuousClock.now
        var fields: [(String, String)]
        switch (arguments.first ?? "", arguments.count) {
        case ("upload", 3):
            let file = try await service.upload(
                from: .file(URL(fileURLWithPath: arguments[1])), to: RemotePath(arguments[2]))
            fields = [("bytes", String(file.size)), ("id", file.id)]
        case ("download", 3):
            let file = try await service.download(try RemotePath(arguments[1]), to: URL(fileURLWithPath: arguments[2]))
            fields = [("bytes", String(file.size))]
        case ("small", 5), ("small", 6):
            let count = try integer(arguments[1])
            let concurrency = try integer(arguments[2])
            let size = try integer(arguments[4])
            let keepGoing = arguments.count == 6
            guard !keepGoing || arguments[5] == "keep-going" else {
                throw BenchmarkFailure("unknown child command \(arguments)")
            }
            let failed = try await uploadSmallFiles(
                service, count: count, concurrency: concurrency, folder: arguments[3], size: size,
                keepGoing: keepGoing)
            fields = [("count", String(count - failed)), ("failed", String(failed))]
        case ("list", 1):
            let files = try await service.list(.root)
            fields = [("count", String(files.count))]
        case ("count", 2):
            do {
                fields = [("count", String(try await service.list(RemotePath(arguments[1])).count))]
            } catch let error as ServiceError where error.code == .notFound {
                fields = [("count", "0")]
            }
        case ("token", 1):
            fields = [("token", try await service.latestChangeToken().rawValue)]
        case ("feed", 2):
            var token = ChangeToken(rawValue: arguments[1])
            var count = 0
            var pages = 0
            while true {
                let page = try await service.changes(since: token)
                count += page.changes.count
                pages += 1
                token = page.nextToken
                if !page.hasMore { break }
            }
            fields = [("count", String(count)), ("pages", String(pages))]
        case ("fill", 4):
            let count = try integer(arguments[1])
            let concurrency = try integer(arguments[2])
            try await FeedFiller(endpoint: endpoint, http: http).fill(
                count: count, concurrency: concurrency, anchor: arguments[3])
            fields = [("count", String(count))]
        case ("rpc", 4), ("pull", 4):
            let count = try integer(arguments[1])
            let concurrency = try integer(arguments[2])
            let bytes = try await MockCapacity(endpoint: endpoint, http: http)
                .run(pulling: arguments[0] == "pull", count: count, concurrency: concurrency, target: arguments[3])
            fields = [("count", String(count)), ("bytes", String(bytes))]
        default:
            throw BenchmarkFailure("unknown child command \(arguments)")
        }
        await http.shutdown()
        let seconds = (ContinuousClock.now - start).seconds
        return ChildReport.render([("seconds", String(seconds))] + fields)
    }

    /// `count` uploads of `size` bytes each to FOLDER/i.bin, `concurrency` at a time.
    /// - Parameter keepGoing: Whether a failed upload is counted (and the first one's error
    ///   written to standard error) instead of ending the run.
    /// - Returns: How many uploads failed.
    private static func uploadSmallFiles(
        _ service: any Service, count: Int, concurrency: Int, folder: String, size: Int, keepGoing: Bool
    ) async throws -> Int {
        let content = Data((0..<size).map { UInt8($0 % 251) })
        let next = Counter()
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var failed = 0
                    while let index = next.take(below: count) {
                        do {
                            _ = try await service.upload(
                                from: .bytes(content), to: RemotePath("\(folder)/\(index).bin"))
                        } catch  where keepGoing && !(error is CancellationError) {
                            if failed == 0 {
                                StandardError.writeLine("upload \(index) failed: \(error)")
                            }
                            failed += 1
                        }
                    }
                    return failed
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// Standard input's digest, with Stratus's own hasher.
    private static func hashStandardInput(_ digest: some IncrementalDigest) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1_048_576)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw BenchmarkFailure("cannot read standard input (errno \(errno))")
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return digest.finalize()
    }

    private static func integer(_ text: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw BenchmarkFailure("'\(text)' is not a positive number") }
        return value
    }
}
