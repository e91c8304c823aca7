import Foundation
import Hummingbird
import MockDrive
import MockOAuth
import MockSupport

/// `stratus-mock drive`: the Google Drive mock and its authorization server on one base URL.
enum DriveMode {
    /// Serves until SIGINT or SIGTERM.
    static func run(_ options: MockOptions) async throws {
        let dataDirectory = try options.makeDataDirectory(prefix: "stratus-mock-drive")
        let authorization = MockAuthorizationServer(
            configuration: .init(flavor: .google, accessTokenLifetime: options.tokenLifetime)
        )
        let drive = try MockDriveServer(storageDirectory: dataDirectory, authorization: authorization)
        let router = Router()
        drive.addRoutes(to: router)
        let tokens = authorization.issueTokens()
        let configuration = authorization.configuration
        try await MockServer.run(router, host: options.host, port: options.port) { baseURL in
            // Written straight to the file descriptor, so a parent process reading a pipe sees it at once.
            FileHandle.standardOutput.write(Data("""
                stratus-mock drive listening on \(baseURL.absoluteString)
                  base URL (api and upload): \(baseURL.absoluteString)
                  API:             \(baseURL.absoluteString)/drive/v3/
                  uploads:         \(baseURL.absoluteString)/upload/drive/v3/files
                  token endpoint:  \(baseURL.absoluteString)\(authorization.paths.token)
                  access token:    \(tokens.accessToken)  (expires in \(tokens.lifetime.components.seconds) s)
                  refresh token:   \(tokens.refreshToken)
                  client id:       \(configuration.clientID)
                  client secret:   \(configuration.clientSecret ?? "(none; public client)")
                  root folder id:  \(drive.rootFolderID)
                  data directory:  \(dataDirectory.path)
                Press Ctrl-C to stop.

                """.utf8))
        }
    }
}
