import Foundation
import MockDropbox
import MockProviders

/// Serves a mode until SIGINT or SIGTERM, over HTTPS when asked, and prints how to reach it.
enum MockMode {
    static func run(_ options: MockOptions) async throws {
        switch options.mode {
        case .dropbox:
            let dropbox = MockDropboxServer.Options(
                longpollBackoff: options.longpollBackoff, writeContention: options.writeContention ? .init() : nil)
            try await serve(DropboxMockProvider(options: dropbox), options)
        case .drive:
            try await serve(DriveMockProvider(), options)
        case .onedrive:
            try await serve(OneDriveMockProvider(), options)
        case .nextcloud:
            let nextcloud = NextcloudMockProvider(
                largestSinglePut: options.largestSinglePut, uploadExpiry: options.uploadExpiry)
            try await serve(nextcloud, options)
        }
    }

    /// Serves the mock `provider` describes, as the options ask.
    static func serve(_ provider: some MockProvider, _ options: MockOptions) async throws {
        let dataDirectory = try options.makeDataDirectory(prefix: "stratus-mock-\(options.mode.rawValue)")
        let (tls, trust) = try await options.makeTLS(dataDirectory: dataDirectory)
        let mock = try provider.build(
            storage: dataDirectory,
            settings: MockServerSettings(
                secure: tls != nil, persistence: options.statePersistence,
                accessTokenLifetime: options.tokenLifetime))
        let server = mock.server
        let tokens = mock.authorization.issueTokens()
        do {
            try await mock.serve(tls: tls, host: options.host, port: options.port) { endpoints in
                let base = endpoints.baseURL.absoluteString
                var lines = ["stratus-mock \(provider.name) listening on \(base)"]
                lines += provider.summary(of: server, baseURL: endpoints.baseURL)
                lines += [
                    "  token endpoint:  \(endpoints.tokenURL.absoluteString)",
                    "  access token:    \(tokens.accessToken)  (expires in \(tokens.lifetime.components.seconds) s)",
                    "  refresh token:   \(tokens.refreshToken)",
                    "  client id:       \(endpoints.clientID)",
                    "  client secret:   \(endpoints.clientSecret ?? "(none; public client)")",
                    "  data directory:  \(dataDirectory.path)",
                    "  fault control:   \(base)/__stratus/faults  (JSON, with the control token as a bearer token)",
                    "  control token:   \(server.faults.controlToken)",
                ]
                if let trust { lines.append("  CA certificate:  \(trust.path)  (tell clients to trust this file)") }
                if let stateFile = server.stateFile {
                    lines.append("  state file:      \(stateFile.path)  (saved within 200 ms of a change, and on exit)")
                }
                lines += ["Press Ctrl-C to stop.", ""]
                // Written straight to the file descriptor, so a parent process reading a pipe sees it at once.
                FileHandle.standardOutput.write(Data(lines.joined(separator: "\n").utf8))
            }
        } catch {
            // What the mock holds is worth keeping even when serving failed.
            try? await server.saveState()
            throw error
        }
        // The server stopped (SIGINT, SIGTERM): its last changes are saved before the process ends.
        try await server.saveState()
    }
}
