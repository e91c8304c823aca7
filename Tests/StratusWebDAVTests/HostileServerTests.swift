import Foundation
import Hummingbird
import MockNextcloud
import MockSupport
import Stratus
import StratusTestSupport
import Synchronization
import Testing

@testable import StratusWebDAV

/// A WebDAV server that answers from a script, on the mock kit (``MockSupport/MockServer``,
/// with its request log and fault injection): each request goes to `answer`, which sees the
/// method, the decoded path and the headers. Used for servers that misbehave in ways no real
/// server or the Nextcloud mock does.
struct ScriptedWebDAVServer: Sendable {
    /// One request, as the script sees it.
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: HTTPFields
    }

    /// Every request the server answered.
    let requestLog = RequestLog()
    /// The path of the service's root: every path below its first component is the script's
    /// (`/remote.php/dav/files/u/` for a Nextcloud remote, whose uploads and versions are
    /// beside its files).
    var rootPath = "/dav/"
    let answer: @Sendable (Request) -> Response

    /// Runs the server for the length of `body`, which gets the service's root URL
    /// (``rootPath``).
    func run<Result: Sendable>(_ body: @Sendable (URL) async throws -> Result) async throws -> Result {
        let router = Router()
        router.addMockInfrastructure(
            requestLog: requestLog,
            faults: FaultInjector(hooks: .init(errorResponse: { status, _ in Self.status(status) })))
        let answer = self.answer
        for name in ["PROPFIND", "PROPPATCH", "MKCOL", "LOCK", "UNLOCK", "PUT", "GET", "DELETE", "MOVE"] {
            guard let method = HTTPRequest.Method(name) else { continue }
            let mount = rootPath.split(separator: "/").first.map(String.init) ?? "dav"
            for route in ["/\(mount)", "/\(mount)/**"] {
                router.on(RouterPath(route), method: method) { request, _ in
                    let path = request.uri.path.removingPercentEncoding ?? request.uri.path
                    return answer(Request(method: name, path: path, headers: request.headers))
                }
            }
        }
        return try await MockServer.withRunning(router) { baseURL in
            try await body(try #require(URL(string: baseURL.absoluteString + rootPath)))
        }
    }

    /// How many requests of a method the server answered.
    func count(_ method: String) -> Int {
        requestLog.entries { $0.method == method }.count
    }

    /// An answer with a status and no body.
    static func status(_ code: Int, headers: HTTPFields = [:]) -> Response {
        Response(
            status: HTTPResponse.Status(code: code), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer()))
    }

    /// One entry of a multistatus answer.
    struct Entry {
        var href: String
        var isFolder: Bool
        var etag: String
        var size = 0
        /// Nextcloud's `oc:fileid`, when given.
        var fileID: String? = nil
    }

    /// Text escaped for XML, control characters as character references (so a CR arrives).
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result += scalar.value < 0x20 ? "&#\(scalar.value);" : String(scalar)
            }
        }
        return result
    }

    /// A 207 multistatus answer listing entries.
    static func multistatus(_ entries: [Entry]) -> Response {
        var text = #"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">"#
        for entry in entries {
            text += "<D:response><D:href>\(escaped(entry.href))</D:href><D:propstat><D:prop>"
            text += entry.isFolder ? "<D:resourcetype><D:collection/></D:resourcetype>" : "<D:resourcetype/>"
            if !entry.isFolder { text += "<D:getcontentlength>\(entry.size)</D:getcontentlength>" }
            text += "<D:getetag>\"\(escaped(entry.etag))\"</D:getetag>"
            if let id = entry.fileID { text += "<oc:fileid xmlns:oc=\"http://owncloud.org/ns\">\(id)</oc:fileid>" }
            text += "<D:getlastmodified>Wed, 25 Nov 2026 00:10:59 GMT</D:getlastmodified>"
            text += "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
        }
        text += "</D:multistatus>"
        return Response(
            status: HTTPResponse.Status(code: 207), headers: [.contentType: "application/xml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A service on the server's root, repeating a failed request at most 3 times.
    static func service(
        _ root: URL, vendor: WebDAVConfiguration.Vendor = .generic, usesLocks: Bool = false,
        lockWait: Duration = .seconds(30), chunkedUploadAbove: Int64 = WebDAVConfiguration.defaultChunkSize,
        chunkSize: Int64 = WebDAVConfiguration.defaultChunkSize
    ) throws -> WebDAVService {
        try WebDAVService(
            configuration: WebDAVConfiguration(
                url: root, credentials: WebDAVCredentials(user: "u", password: "p"), vendor: vendor,
                usesLocks: usesLocks,
                lockWait: lockWait, retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50)),
                chunkedUploadThreshold: chunkedUploadAbove, chunkSize: chunkSize))
    }
}

/// A count shared with a server's answers.
final class Counter: Sendable {
    private let count = Mutex(0)
    /// The count.
    var value: Int { count.withLock { $0 } }
    /// Adds one and returns the new count.
    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Servers that answer what no honest server would, found by a hostile-server review (issue 30).
///
/// Scripted servers stop a walk without end on their own after ``runaway`` PROPFINDs (with
/// HTTP 500), so a regression fails instead of hanging.
@Suite struct HostileServerTests {
    static let runaway = 300

    // MARK: Listings without end

    @Test func aListingThatNamesTheParentFolderEnds() async throws {
        let propfinds = Counter()
        let server = ScriptedWebDAVServer { request in
            guard request.method == "PROPFIND" else { return ScriptedWebDAVServer.status(405) }
            guard propfinds.next() < Self.runaway else {
                return ScriptedWebDAVServer.status(500)
            }
            switch request.path {
            case "/dav/", "/dav":
                return ScriptedWebDAVServer.multistatus([
                    .init(href: "/dav/", isFolder: true, etag: "root"),
                    .init(href: "/dav/a/", isFolder: true, etag: "a"),
                ])
            case "/dav/a/", "/dav/a":
                // `/dav/a/` names its parent `/dav/` as one of its folders.
                return ScriptedWebDAVServer.multistatus([
                    .init(href: "/dav/a/", isFolder: true, etag: "a"),
                    .init(href: "/dav/", isFolder: true, etag: "root"),
                    .init(href: "/dav/a/f.txt", isFolder: false, etag: "f", size: 3),
                ])
            default:
                return ScriptedWebDAVServer.status(404)
            }
        }
        let files = try await server.run { root in
            try await ScriptedWebDAVServer.service(root).list(.root)
        }
        #expect(files.map(\.path) == [try RemotePath("a/f.txt")])
        #expect(server.count("PROPFIND") <= 4, "\(server.count("PROPFIND")) PROPFINDs for a two-folder listing")
    }

    /// A server that answers every listing with a subfolder `a/` (`/dav/a/` lists `/dav/a/a/`,
    /// and so on).
    static func endlessFolders(propfinds: Counter) -> ScriptedWebDAVServer {
        ScriptedWebDAVServer { request in
            guard request.method == "PROPFIND" else { return ScriptedWebDAVServer.status(405) }
            guard propfinds.next() < runaway else { return ScriptedWebDAVServer.status(500) }
            var folder = request.path
            if !folder.hasSuffix("/") { folder += "/" }
            var entries: [ScriptedWebDAVServer.Entry] = [
                .init(href: folder, isFolder: true, etag: folder),
                .init(href: folder + "a/", isFolder: true, etag: "x"),
            ]
            if folder == "/dav/" { entries.append(.init(href: "/dav/keep.txt", isFolder: false, etag: "k", size: 1)) }
            return ScriptedWebDAVServer.multistatus(entries)
        }
    }

    @Test func aListingWithoutEndIsAnErrorNamingTheLimit() async throws {
        let propfinds = Counter()
        let server = Self.endlessFolders(propfinds: propfinds)
        let error = try await server.run { root in
            await #expect(throws: ServiceError.self) { _ = try await ScriptedWebDAVServer.service(root).list(.root) }
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("\(WebDAVService.maximumListingDepth)") == true, "\(String(describing: error))")
        let count = server.count("PROPFIND")
        #expect(count <= WebDAVService.maximumListingDepth + 1, "\(count) PROPFINDs")
    }

    @Test func theChangeFeedReportsNoDeletionsWhenAListingHasNoEnd() async throws {
        let propfinds = Counter()
        let endless = Self.endlessFolders(propfinds: propfinds)
        let isEndless = Counter()
        let server = ScriptedWebDAVServer { request in
            if request.path.hasPrefix("/dav/.stratus") {
                switch request.method {
                case "MKCOL": return ScriptedWebDAVServer.status(201)
                case "PUT": return ScriptedWebDAVServer.status(201)
                default: return ScriptedWebDAVServer.status(404)
                }
            }
            if isEndless.value > 0 { return endless.answer(request) }
            guard request.method == "PROPFIND", request.path == "/dav/" || request.path == "/dav" else {
                return ScriptedWebDAVServer.status(404)
            }
            return ScriptedWebDAVServer.multistatus([
                .init(href: "/dav/", isFolder: true, etag: "root"),
                .init(href: "/dav/keep.txt", isFolder: false, etag: "k", size: 1),
            ])
        }
        try await server.run { root in
            let service = try ScriptedWebDAVServer.service(root)
            let tree = try #require(try await service.walk(.root))
            #expect(tree.files.keys.map(\.string) == ["keep.txt"])
            _ = isEndless.next()
            // The walk the feed compares with its snapshot: an error, never a tree cut short
            // (whose missing files the feed would report deleted).
            let error = await #expect(throws: ServiceError.self) { _ = try await service.walk(.root) }
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains("\(WebDAVService.maximumListingDepth)") == true)
            await #expect(throws: ServiceError.self) { _ = try await service.latestChangeToken() }
        }
        #expect(propfinds.value < Self.runaway)
    }

    // MARK: Header values from server text

    @Test func anETagWithACarriageReturnIsNeverSentInIfMatch() async throws {
        let server = ScriptedWebDAVServer { request in
            switch (request.method, request.path) {
            case ("PROPFIND", "/dav/save.bin"):
                return ScriptedWebDAVServer.multistatus([
                    .init(href: "/dav/save.bin", isFolder: false, etag: "v1\rX-Injected: yes", size: 1)
                ])
            case ("PUT", _): return ScriptedWebDAVServer.status(201)
            default: return ScriptedWebDAVServer.status(404)
            }
        }
        let error = try await server.run { root in
            // ownCloud gets a PUT straight to the file, with If-Match when it runs without locks.
            let service = try ScriptedWebDAVServer.service(root, vendor: .owncloud)
            let current = try await service.metadata(of: try RemotePath("save.bin"))
            return await #expect(throws: ServiceError.self) {
                _ = try await service.upload(
                    from: .bytes(Data("new".utf8)), to: try RemotePath("save.bin"),
                    options: UploadOptions(precondition: .mustMatch(current.version)))
            }
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("U+000D") == true, "\(String(describing: error))")
        #expect(server.count("PUT") == 0)
    }

    /// A server that grants every lock with the given `Lock-Token` header, and counts UNLOCKs.
    static func lockingServer(token: String) -> ScriptedWebDAVServer {
        ScriptedWebDAVServer { request in
            switch request.method {
            case "MKCOL": return ScriptedWebDAVServer.status(405)
            case "PROPFIND":
                if request.path.hasPrefix("/dav/.stratus") || request.path == "/dav/" || request.path == "/dav" {
                    return ScriptedWebDAVServer.multistatus([
                        .init(href: request.path, isFolder: !request.path.contains("/locks/"), etag: "l")
                    ])
                }
                return ScriptedWebDAVServer.status(404)
            case "LOCK":
                var headers = HTTPFields()
                if let name = HTTPFields.Element.Name("Lock-Token") { headers[name] = token }
                return ScriptedWebDAVServer.status(200, headers: headers)
            default: return ScriptedWebDAVServer.status(204)
            }
        }
    }

    /// The mock kit cannot put a bare CR on the wire (HTTP field values are legalized), so the
    /// server sends a TAB, the one control character HTTP lets through; the adapter refuses any
    /// below U+0020 (see ``lockTokensAndHeaderValuesWithControlCharactersAreRefused()`` for CR).
    @Test func aLockTokenWithAControlCharacterIsNeverSentBack() async throws {
        let server = Self.lockingServer(token: "<opaquelocktoken:a\tIf: (<forged>)>")
        let error = try await server.run { root in
            let service = try ScriptedWebDAVServer.service(root, usesLocks: true)
            return await #expect(throws: ServiceError.self) {
                _ = try await service.upload(
                    from: .bytes(Data("new".utf8)), to: try RemotePath("save.bin"), options: UploadOptions())
            }
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("U+0009") == true, "\(String(describing: error))")
        #expect(server.count("UNLOCK") == 0)
        #expect(server.count("PUT") == 0)
    }

    @Test func lockTokensAndHeaderValuesWithControlCharactersAreRefused() throws {
        for bad in ["a\rb", "a\nb", "a\u{0}b", "a\u{1F}b", "a\u{7F}b", "\r"] {
            #expect(throws: ServiceError.self) { try WebDAVTransport.checkHeaderValue(bad, name: "If", action: "test") }
            let error = #expect(throws: ServiceError.self) {
                _ = try WebDAVService.lockToken("<opaquelocktoken:\(bad)>", action: "LOCK")
            }
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains(bad) == false)
        }
        try WebDAVTransport.checkHeaderValue("(<opaquelocktoken:e71d4fae-5dec-22d6> [\"é\"])", name: "If", action: "t")
        #expect(try WebDAVService.lockToken("<opaquelocktoken:abc>", action: "LOCK") == "opaquelocktoken:abc")
        #expect(throws: ServiceError.self) { _ = try WebDAVService.lockToken("<>", action: "LOCK") }
    }
}

/// Locks against the Nextcloud mock with faults: lost LOCK answers, and eight writers of one
/// instance on a slow server.
@Suite struct LockFaultTests {
    /// Runs a fresh Nextcloud mock (temporary folder, port 0) for the length of `body`.
    private func withNextcloud<Result: Sendable>(
        _ body: @Sendable (MockNextcloudServer, URL) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stratus-lockfaults-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try MockNextcloudServer(storageDirectory: folder, user: "alice", password: "pw")
        let router = Router()
        server.addRoutes(to: router)
        return try await MockServer.withRunning(router) { baseURL in
            try await body(server, try #require(URL(string: baseURL.absoluteString + "/remote.php/dav/files/alice/")))
        }
    }

    private func service(_ root: URL, lockWait: Duration) throws -> WebDAVService {
        try WebDAVService(
            configuration: WebDAVConfiguration(
                url: root, credentials: WebDAVCredentials(user: "alice", password: "pw"), vendor: .nextcloud,
                lockWait: lockWait, retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50))))
    }

    @Test func lostLockAnswersEndInAnErrorAfterAFewLocks() async throws {
        let (locks, error) = try await withNextcloud { server, root in
            let id = server.faults.add(FaultRule(method: "LOCK", times: 0, fault: .dropBeforeResponse))
            let error = await #expect(throws: ServiceError.self) {
                _ = try await service(root, lockWait: .seconds(30)).upload(
                    from: .bytes(Data("x".utf8)), to: try RemotePath("save.bin"), options: UploadOptions())
            }
            return (server.faults.rules.first { $0.id == id }?.matched ?? -1, error)
        }
        #expect(locks > 0 && locks < 50, "\(locks) LOCKs for one upload whose LOCK answers were all lost")
        // A lost answer: the outcome of the last LOCK is unknown.
        #expect(
            [.network, .timeout, .server, .invalidResponse].contains(error?.code), "\(String(describing: error))")
    }

    @Test func aLockWhoseAnswerWasLostExpiresWhileTheWriterStillWaits() async throws {
        // The first LOCK is granted but its answer lost: the writer then waits for that lock
        // (its own, unknown to it) to expire, which its lease makes shorter than the wait.
        let lockWait = Duration.seconds(12)
        let file = try await withNextcloud { server, root in
            _ = server.faults.add(FaultRule(method: "LOCK", times: 1, fault: .dropBeforeResponse))
            return try await service(root, lockWait: lockWait).upload(
                from: .bytes(Data("x".utf8)), to: try RemotePath("save.bin"), options: UploadOptions())
        }
        #expect(file.size == 1)
    }

    @Test func eightWritersOfOneInstanceTakeTurnsOnASlowServer() async throws {
        // Each request takes 200 ms more: eight writers in line for one path take several
        // seconds in all, while each holds the lock well under a second.
        let outcomes = try await withNextcloud { server, root in
            let service = try service(root, lockWait: .seconds(3))
            _ = server.faults.add(FaultRule(times: 0, fault: .delay(milliseconds: 200)))
            let path = try RemotePath("race/slot.bin")
            return await withTaskGroup(of: Result<RemoteFile, ServiceError>.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        do {
                            return .success(
                                try await service.upload(
                                    from: .bytes(Data("writer \(writer)".utf8)), to: path,
                                    options: UploadOptions(precondition: .mustNotExist)))
                        } catch let error as ServiceError {
                            return .failure(error)
                        } catch {
                            return .failure(ServiceError(.internalError, "\(error)"))
                        }
                    }
                }
                var outcomes: [Result<RemoteFile, ServiceError>] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
        }
        let winners = outcomes.filter { if case .success = $0 { true } else { false } }
        let others = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(winners.count == 1)
        #expect(others.allSatisfy { $0.code == .conflict }, "\(others.map(\.message))")
    }
}
