import Foundation
import Hummingbird
import MockDrive
import MockDropbox
import MockNextcloud
import MockOAuth
import MockOneDrive
import MockSupport

/// What `stratus-mock` serves for one mode: the routes, and the lines it prints on start.
struct ServedMock {
    /// The router with every route of the mock.
    var router: Router<BasicRequestContext>
    /// The authorization server whose tokens the mock accepts.
    var authorization: MockAuthorizationServer
    /// The bearer token of the control routes (`/__stratus/...`).
    var controlToken: String
    /// The file the mock saves its state to, when it does.
    var stateFile: URL? = nil
    /// Saves the mock's state, if it saves it at all; called once the server has stopped.
    var saveState: @Sendable () async throws -> Void = {}
    /// The mode's own lines for the start banner, given the base URL.
    var describe: @Sendable (URL) -> [String]
    /// The routes of a second server the mode needs (OneDrive's download and upload host),
    /// served on a port of its own.
    var contentRoutes: (@Sendable (Router<BasicRequestContext>) -> Void)? = nil
    /// Told the second server's base URL once it listens.
    var contentStarted: @Sendable (URL) -> Void = { _ in }
}

extension MockOptions.Mode {
    /// The flavour of OAuth server the mode's provider uses.
    var flavor: MockAuthorizationServer.Flavor {
        switch self {
        case .dropbox: .dropbox
        case .drive: .google
        // Nextcloud signs in with HTTP Basic; its OAuth server is not used.
        case .nextcloud: .dropbox
        case .onedrive: .microsoft
        }
    }

    /// Builds the mode's mock over a data directory.
    /// - Parameters:
    ///   - secure: Whether it is served over TLS (the URLs it hands out say `https`).
    ///   - longpollBackoff: The `backoff` of every Dropbox long-poll answer, if any.
    ///   - writeContention: Whether Dropbox writes contend (``WriteContention``'s defaults) or never do.
    ///   - persistence: Whether the Dropbox, Drive and OneDrive mocks save their state in the folder.
    func makeMock(
        dataDirectory: URL, authorization: MockAuthorizationServer, secure: Bool, longpollBackoff: Int? = nil,
        writeContention: Bool = true, persistence: StatePersistence = .inMemory,
        nextcloud nextcloudOptions: NextcloudOptions = NextcloudOptions()
    ) throws -> ServedMock {
        let router = Router()
        switch self {
        case .dropbox:
            let dropbox = try MockDropboxServer(
                storageDirectory: dataDirectory, authorization: authorization,
                options: MockDropboxServer.Options(
                    longpollBackoff: longpollBackoff, writeContention: writeContention ? .init() : nil),
                persistence: persistence)
            dropbox.addRoutes(to: router)
            return ServedMock(
                router: router, authorization: authorization, controlToken: dropbox.faults.controlToken,
                stateFile: dropbox.persistence?.file, saveState: dropbox.saveState
            ) { base in
                [
                    "  base URL (api, content and notify hosts): \(base.absoluteString)",
                    writeContention
                        ? "  write contention: on (429 too_many_write_operations past 2 overlapping commits)"
                        : "  write contention: off",
                ]
            }
        case .drive:
            let drive = try MockDriveServer(
                storageDirectory: dataDirectory,
                authorization: authorization,
                options: MockDriveServer.Options(scheme: secure ? "https" : "http"),
                persistence: persistence
            )
            drive.addRoutes(to: router)
            let root = drive.rootFolderID
            return ServedMock(
                router: router, authorization: authorization, controlToken: drive.faults.controlToken,
                stateFile: drive.persistence?.file, saveState: drive.saveState
            ) { base in
                [
                    "  base URL (api and upload): \(base.absoluteString)",
                    "  API:             \(base.absoluteString)/drive/v3/",
                    "  uploads:         \(base.absoluteString)/upload/drive/v3/files",
                    "  root folder id:  \(root)",
                ]
            }
        case .onedrive:
            let onedrive = try MockOneDriveServer(
                storageDirectory: dataDirectory, authorization: authorization,
                options: MockOneDriveServer.Options(scheme: secure ? "https" : "http"), persistence: persistence)
            onedrive.addRoutes(to: router)
            let driveID = onedrive.driveID
            var served = ServedMock(
                router: router, authorization: authorization, controlToken: onedrive.faults.controlToken,
                stateFile: onedrive.persistence?.file, saveState: onedrive.saveState
            ) { base in
                [
                    "  Graph API:       \(base.absoluteString)/v1.0/  (me/drive, drives/\(driveID))",
                    "  content host:    \(onedrive.contentBaseURL?.absoluteString ?? "?")  (download and upload session URLs; refuses Authorization)",
                    "  drive id:        \(driveID)",
                    "  app folder:      /Apps/\(onedrive.options.appFolderName)  (special/approot)",
                    "  delta expiry:    POST \(base.absoluteString)/__stratus/onedrive/expire-delta-tokens  (control token)",
                ]
            }
            served.contentRoutes = { onedrive.addContentRoutes(to: $0) }
            served.contentStarted = { onedrive.setContentBaseURL($0) }
            return served
        case .nextcloud:
            let password = UUID().uuidString.lowercased()
            let nextcloud = try MockNextcloudServer(
                storageDirectory: dataDirectory, user: "stratus", password: password,
                largestSinglePut: nextcloudOptions.largestSinglePut,
                uploadExpiry: nextcloudOptions.uploadExpiry ?? .seconds(24 * 3600))
            nextcloud.addRoutes(to: router)
            return ServedMock(router: router, authorization: authorization, controlToken: nextcloud.faults.controlToken)
            { base in
                [
                    "  files:           \(base.absoluteString)\(nextcloud.filesPath)",
                    "  versions:        \(base.absoluteString)/remote.php/dav/versions/stratus/versions/FILEID",
                    "  uploads:         \(base.absoluteString)/remote.php/dav/uploads/stratus/  (chunked upload v2)",
                    "  largest PUT:     "
                        + (nextcloudOptions.largestSinglePut.map { "\($0) bytes (413 above it)" } ?? "no limit"),
                    "  user:            stratus",
                    "  password:        \(password)",
                ]
            }
        }
    }
}

/// The Nextcloud mock's own options.
struct NextcloudOptions {
    /// The largest body one PUT may carry, if limited.
    var largestSinglePut: Int64?
    /// How long an unused upload folder lives; Nextcloud's 24 hours when `nil`.
    var uploadExpiry: Duration?
}

/// Serves a mode until SIGINT or SIGTERM, over HTTPS when asked, and prints how to reach it.
enum MockMode {
    static func run(_ options: MockOptions) async throws {
        let dataDirectory = try options.makeDataDirectory(prefix: "stratus-mock-\(options.mode.rawValue)")
        let authorization = MockAuthorizationServer(
            configuration: .init(
                flavor: options.mode.flavor, accessTokenLifetime: options.tokenLifetime,
                // Microsoft's identity platform answers every refresh with a new refresh token.
                rotatesRefreshTokens: options.mode == .onedrive)
        )
        let (tls, trust) = try options.makeTLS(dataDirectory: dataDirectory)
        let mock = try options.mode.makeMock(
            dataDirectory: dataDirectory, authorization: authorization, secure: tls != nil,
            longpollBackoff: options.longpollBackoff, writeContention: options.writeContention,
            persistence: options.statePersistence,
            nextcloud: NextcloudOptions(largestSinglePut: options.largestSinglePut, uploadExpiry: options.uploadExpiry))
        let tokens = authorization.issueTokens()
        let configuration = authorization.configuration
        let mode = options.mode.rawValue
        let describe = mock.describe
        let controlToken = mock.controlToken
        let stateFile = mock.stateFile
        // A second host (OneDrive's content host) listens first, so the banner can name it.
        var contentServer: Task<Void, any Error>?
        if let contentRoutes = mock.contentRoutes {
            let (started, announce) = AsyncStream<URL>.makeStream()
            let host = options.host
            contentServer = Task {
                defer { announce.finish() }
                let contentRouter = Router()
                contentRoutes(contentRouter)
                try await MockServer.run(contentRouter, tls: tls, host: host, port: 0) { url in
                    announce.yield(url)
                }
            }
            var iterator = started.makeAsyncIterator()
            guard let contentURL = await iterator.next() else {
                try await contentServer?.value
                throw MockServerError.didNotStart
            }
            mock.contentStarted(contentURL)
        }
        defer { contentServer?.cancel() }
        do {
            try await MockServer.run(mock.router, tls: tls, host: options.host, port: options.port) { baseURL in
                var lines = ["stratus-mock \(mode) listening on \(baseURL.absoluteString)"]
                lines += describe(baseURL)
                lines += [
                    "  token endpoint:  \(baseURL.absoluteString)\(authorization.paths.token)",
                    "  access token:    \(tokens.accessToken)  (expires in \(tokens.lifetime.components.seconds) s)",
                    "  refresh token:   \(tokens.refreshToken)",
                    "  client id:       \(configuration.clientID)",
                    "  client secret:   \(configuration.clientSecret ?? "(none; public client)")",
                    "  data directory:  \(dataDirectory.path)",
                    "  fault control:   \(baseURL.absoluteString)/__stratus/faults  (JSON, with the control token as a bearer token)",
                    "  control token:   \(controlToken)",
                ]
                if let trust { lines.append("  CA certificate:  \(trust.path)  (tell clients to trust this file)") }
                if let stateFile {
                    lines.append("  state file:      \(stateFile.path)  (saved within 200 ms of a change, and on exit)")
                }
                lines += ["Press Ctrl-C to stop.", ""]
                // Written straight to the file descriptor, so a parent process reading a pipe sees it at once.
                FileHandle.standardOutput.write(Data(lines.joined(separator: "\n").utf8))
            }
        } catch {
            // What the mock holds is worth keeping even when serving failed.
            try? await mock.saveState()
            throw error
        }
        // The server stopped (SIGINT, SIGTERM): its last changes are saved before the process ends.
        try await mock.saveState()
    }
}
