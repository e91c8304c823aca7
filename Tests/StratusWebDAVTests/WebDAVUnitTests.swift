import Foundation
import Stratus
import Testing

@testable import StratusWebDAV

/// Options, redaction and answer parsing, without a server.
@Suite struct WebDAVUnitTests {
    private func options(_ values: [String: String]) -> RemoteOptions {
        RemoteOptions(remoteName: "cloud", typeName: "webdav", values: values)
    }

    @Test func backendBuildsAServiceFromOptions() throws {
        let service = try #require(
            try WebDAVBackend.makeService(
                options: options([
                    "url": "https://cloud.example.com/remote.php/dav/files/alice/Saves", "user": "alice",
                    "password": "pw-123456", "vendor": "nextcloud",
                ])) as? WebDAVService)
        #expect(
            service.configuration.url.absoluteString == "https://cloud.example.com/remote.php/dav/files/alice/Saves/")
        #expect(service.configuration.vendor == .nextcloud)
        #expect(service.capabilities.supportsVersions)
        #expect(service.configuration.propagatesFolderETags)
    }

    @Test func preconditionsAreAtomicOnlyWithLocksDeclaredExclusive() throws {
        func conditionalWrites(_ extra: [String: String]) throws -> ServiceCapabilities.ConditionalWrites {
            let values = ["url": "https://dav.example.com/saves", "user": "a", "password": "b"].merging(extra) { $1 }
            return try WebDAVBackend.makeService(options: options(values)).capabilities.conditionalWrites
        }
        #expect(try conditionalWrites([:]) == .bestEffort)
        #expect(try conditionalWrites(["exclusive_locks": "true"]) == .atomic)
        #expect(try conditionalWrites(["exclusive_locks": "true", "locking": "false"]) == .bestEffort)
        #expect(throws: ServiceError.self) { _ = try conditionalWrites(["exclusive_locks": "maybe"]) }
    }

    @Test func onlyNamesWsgiDAVReadsIntactInADestinationAreMoved() throws {
        #expect(WebDAVService.canMove(to: try RemotePath("saves/100% #1 & a=b+c ~'q'.txt")))
        #expect(!WebDAVService.canMove(to: try RemotePath("saves/a;b.txt")))
        #expect(!WebDAVService.canMove(to: try RemotePath("why?/a.txt")))
    }

    @Test func temporaryUploadNamesCarryTheirAge() throws {
        let name = WebDAVService.newStagingName()
        let made = try #require(WebDAVService.stagingTime(name))
        #expect(abs(made.timeIntervalSinceNow) < 5)
        #expect(WebDAVService.stagingTime("notes.txt") == nil)
        #expect(WebDAVService.stagingTime("x-0123.upload") == nil)
    }

    @Test func backendRefusesPlainHTTPToAnotherHost() throws {
        #expect(throws: ServiceError.self) {
            _ = try WebDAVBackend.makeService(
                options: options(["url": "http://dav.example.com/", "user": "a", "password": "b"]))
        }
        _ = try WebDAVBackend.makeService(
            options: options([
                "url": "http://dav.example.com/", "user": "a", "password": "b", "allow_insecure_http": "true",
            ]))
        _ = try WebDAVBackend.makeService(
            options: options(["url": "http://127.0.0.1:8080/dav", "user": "a", "password": "b"]))
    }

    @Test func backendNeedsAPasswordSource() throws {
        let error = #expect(throws: ServiceError.self) {
            _ = try WebDAVBackend.makeService(options: options(["url": "https://dav.example.com/", "user": "a"]))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("password_file") == true)
    }

    @Test func passwordFileIsRead() throws {
        let file = FileManager.default.temporaryDirectory.appending(
            path: "stratus-webdav-password-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try "from-the-file\nsecond line\n".write(to: file, atomically: true, encoding: .utf8)
        let service = try #require(
            try WebDAVBackend.makeService(
                options: options([
                    "url": "https://dav.example.com/", "user": "a", "password_file": file.path,
                ])) as? WebDAVService)
        #expect(service.configuration.credentials.password == "from-the-file")
    }

    @Test func passwordNeverShows() throws {
        let credentials = WebDAVCredentials(user: "alice", password: "hunter2-secret")
        #expect(!credentials.description.contains("hunter2"))
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        let described = "\(options(["url": "https://x.example/", "user": "a", "password": "hunter2-secret"]))"
        #expect(!described.contains("hunter2"))
        let basic = Data("alice:hunter2-secret".utf8).base64EncodedString()
        let body = Data(
            "<d:error xmlns:d=\"DAV:\" xmlns:s=\"http://sabredav.org/ns\"><s:message>bad login hunter2-secret \(basic)</s:message></d:error>"
                .utf8)
        let error = WebDAVErrorMapping.error(
            status: 401, body: body, action: "PROPFIND of a", secrets: credentials.secrets)
        #expect(error.code == .unauthorized)
        #expect(!error.message.contains("hunter2"))
        #expect(!error.message.contains(basic))
    }

    @Test func multistatusIsReadWithWeakETagsAndMissingProperties() throws {
        let body = Data(
            """
            <?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:x="urn:x-stratus:webdav"><D:response><D:href>http://h/dav/caf%C3%A9%20x.txt</D:href>\
            <D:propstat><D:prop><D:getcontentlength>3</D:getcontentlength><D:getetag>W/"3-abc"</D:getetag><D:resourcetype/>\
            <D:getlastmodified>Wed, 25 Nov 2026 00:10:59 GMT</D:getlastmodified></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>\
            <D:propstat><D:prop><x:stratus-state/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat></D:response></D:multistatus>
            """.utf8)
        let entries = try WebDAVEntry.parse(body, action: "test")
        #expect(entries.count == 1)
        #expect(entries[0].href == "/dav/café x.txt")
        #expect(entries[0].etag == "3-abc")
        #expect(entries[0].size == 3)
        #expect(entries[0].state == nil)
        #expect(!entries[0].isCollection)
        #expect(entries[0].modified == Date(timeIntervalSince1970: 1_795_565_459))
    }

    @Test func aRefusedWriteInsideA207IsALockConflict() {
        let body = Data(
            """
            <?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/p/new.txt</D:href><D:status>HTTP/1.1 424 Failed Dependency</D:status></D:response>\
            <D:response><D:href>/p</D:href><D:status>HTTP/1.1 423 Locked</D:status></D:response></D:multistatus>
            """.utf8)
        let error = WebDAVErrorMapping.multistatusFailure(body, action: "PUT of p/new.txt", secrets: [])
        #expect(error.httpStatus == 423)
        #expect(error.code == .rateLimited)
    }

    @Test func stateRecordsRoundTripAndRefuseGarbage() {
        let state = WebDAVState(sha256: String(repeating: "a", count: 64), token: "0123456789abcdef", etag: "3-abc def")
        #expect(WebDAVState(state.text) == state)
        #expect(WebDAVState("v2 nonsense") == nil)
        #expect(WebDAVState("") == nil)
    }

    @Test func metadataTravelsAsASCIIJSON() throws {
        let metadata = ["note": "héllo wörld 🎮", "slot": "1"]
        let text = try WebDAVProperties.encode(metadata)
        #expect(!text.unicodeScalars.contains { !$0.isASCII })
        let decoded = WebDAVProperties.decode(text)
        #expect(decoded == metadata)
        #expect(WebDAVProperties.decode(nil) == [:])
    }

    @Test func waitingPollsOnThePollIntervalOption() throws {
        func waiting(_ extra: [String: String]) throws -> ChangeWaiting {
            let values = ["url": "https://dav.example.com/saves", "user": "a", "password": "b"].merging(extra) { $1 }
            return try WebDAVBackend.makeService(options: options(values)).capabilities.changeWaiting
        }
        #expect(WebDAVBackend.options.contains { $0.name == "poll_interval" })
        #expect(try waiting([:]) == .polling(PollingSchedule()))
        #expect(try waiting(["poll_interval": "45"]).polling.maximum == .seconds(45))
        let error = #expect(throws: ServiceError.self) { _ = try waiting(["poll_interval": "0"]) }
        #expect(error?.message.contains("'poll_interval'") == true)
    }
}
