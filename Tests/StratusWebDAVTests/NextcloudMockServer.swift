import Foundation
import Hummingbird
import MockNextcloud
import MockSupport
import Stratus
import StratusTestSupport

@testable import StratusWebDAV

/// The Nextcloud-dialect mocks of the whole test process, each started on first use on port 0:
/// one without a limit on a PUT's size, and one with ``limitedPutSize``, like a Nextcloud behind
/// a proxy with a body size limit.
enum NextcloudMockServer {
    static let user = "alice"
    static let password = "nextcloud-app-password-not-secret"
    /// The largest PUT body the limited mock accepts (413 above it).
    static let limitedPutSize: Int64 = 512 * 1024

    struct Running: Sendable {
        var server: MockNextcloudServer
        var baseURL: URL
        /// The requests as the tests' own log keeps them, with the headers of chunked upload
        /// (``recordedHeaders``), which the mock's log does not keep.
        var log: RequestLog
    }

    /// The headers ``Running/log`` keeps.
    static let recordedHeaders = RequestLogMiddleware<BasicRequestContext>.defaultRecordedHeaders.union([
        "destination", "oc-total-length", "x-oc-mtime", "oc-checksum", "depth", "overwrite",
    ])

    private static let launch = start(largestSinglePut: nil)
    private static let limitedLaunch = start(largestSinglePut: limitedPutSize)

    private static func start(largestSinglePut: Int64?) -> Task<Running, any Error> {
        Task<Running, any Error> {
            let folder = FileManager.default.temporaryDirectory.appending(
                path: "stratus-nextcloud-\(UUID().uuidString)")
            let server = try MockNextcloudServer(
                storageDirectory: folder, user: user, password: password, largestSinglePut: largestSinglePut)
            let router = Router()
            let log = RequestLog()
            router.add(middleware: RequestLogMiddleware(log: log, recordedHeaders: recordedHeaders))
            server.addRoutes(to: router)
            let (urls, announce) = AsyncStream<URL>.makeStream()
            Task.detached {
                try await MockServer.run(router) { url in
                    announce.yield(url)
                    announce.finish()
                }
            }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next() else { throw WebDAVMockUnavailable() }
            return Running(server: server, baseURL: url, log: log)
        }
    }

    struct WebDAVMockUnavailable: Error {}

    /// The mock without a PUT limit, or the one with ``limitedPutSize``.
    static func running(limited: Bool = false) async throws -> Running {
        try await (limited ? limitedLaunch : launch).value
    }

    /// Chunked-upload settings of a test service.
    struct Chunking: Sendable {
        /// The largest upload sent in one PUT.
        var threshold: Int64
        /// The chunk size.
        var chunkSize: Int64
        /// Whether the service talks to the mock with the PUT limit.
        var limitedServer: Bool = false
    }

    /// A service on a folder of its own (created with MKCOL by the adapter's first write; the
    /// folder is made here so the feed can start at once).
    static func makeService(
        folder: String, pageSize: Int = 500, chunking: Chunking? = nil, usesLocks: Bool = true
    ) async throws -> WebDAVService {
        let running = try await running(limited: chunking?.limitedServer ?? false)
        guard let url = URL(string: "\(running.baseURL.absoluteString)/remote.php/dav/files/\(user)/\(folder)/") else {
            throw WebDAVMockUnavailable()
        }
        let root = try WebDAVConfiguration(
            url: URL(string: "\(running.baseURL.absoluteString)/remote.php/dav/files/\(user)/")!,
            credentials: WebDAVCredentials(user: user, password: password), vendor: .nextcloud)
        try await WebDAVService(configuration: root).ensureFolders(try RemotePath(folder))
        return try WebDAVService(
            configuration: WebDAVConfiguration(
                url: url,
                credentials: WebDAVCredentials(user: user, password: password),
                vendor: .nextcloud,
                usesLocks: usesLocks,
                changePageSize: pageSize,
                retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
                pollingSchedule: PollingSchedule.quickForTests,
                chunkedUploadThreshold: chunking?.threshold ?? WebDAVConfiguration.defaultChunkSize,
                chunkSize: chunking?.chunkSize ?? WebDAVConfiguration.defaultChunkSize
            ))
    }
}
