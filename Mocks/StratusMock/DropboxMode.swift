import Foundation
import Hummingbird
import MockDropbox
import MockOAuth
import MockSupport

/// `stratus-mock dropbox`: the Dropbox mock and its authorization server on one base URL.
enum DropboxMode {
    /// Serves until SIGINT or SIGTERM.
    static func run(_ options: MockOptions) async throws {
        let dataDirectory = try options.makeDataDirectory(prefix: "stratus-mock-dropbox")
        let authorization = MockAuthorizationServer(
            configuration: .init(flavor: .dropbox, accessTokenLifetime: options.tokenLifetime)
        )
        let dropbox = try MockDropboxServer(storageDirectory: dataDirectory, authorization: authorization)
        let router = Router()
        dropbox.addRoutes(to: router)
        let tokens = authorization.issueTokens()
        let configuration = authorization.configuration
        try await MockServer.run(router, host: options.host, port: options.port) { baseURL in
            // Written straight to the file descriptor, so a parent process reading a pipe sees it at once.
            FileHandle.standardOutput.write(Data("""
                stratus-mock dropbox listening on \(baseURL.absoluteString)
                  base URL (api, content and notify hosts): \(baseURL.absoluteString)
                  token endpoint:  \(baseURL.absoluteString)/oauth2/token
                  access token:    \(tokens.accessToken)  (expires in \(tokens.lifetime.components.seconds) s)
                  refresh token:   \(tokens.refreshToken)
                  client id:       \(configuration.clientID)
                  client secret:   \(configuration.clientSecret ?? "(none; public client)")
                  data directory:  \(dataDirectory.path)
                Press Ctrl-C to stop.

                """.utf8))
        }
    }
}
