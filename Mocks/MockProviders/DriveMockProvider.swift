import Foundation
import MockDrive
import MockOAuth
import MockSupport

/// The Google Drive mock: API and uploads on one base URL, with a Google-flavoured
/// authorization server.
public struct DriveMockProvider: MockProvider {
    /// The mock's options; their scheme becomes `https` when the mock is served over TLS.
    public var options: MockDriveServer.Options

    /// Creates the description.
    /// - Parameter options: The mock's options.
    public init(options: MockDriveServer.Options = .init()) {
        self.options = options
    }

    /// `drive`.
    public var name: String { "drive" }

    /// Google's.
    public var authorizationFlavor: MockAuthorizationServer.Flavor { .google }

    /// Builds a ``MockDriveServer``.
    public func makeServer(storage: URL, authorization: MockAuthorizationServer, settings: MockServerSettings) throws
        -> MockDriveServer
    {
        try MockDriveServer(
            storageDirectory: storage, authorization: authorization, options: settings.secured(options),
            persistence: settings.persistence)
    }

    /// The base URL: the API (`/drive/v3`) and uploads (`/upload/drive/v3`) sit under it.
    public func apiURL(of server: MockDriveServer, baseURL: URL) -> URL { baseURL }

    /// The API's and uploads' URLs and the root folder's id.
    public func summary(of server: MockDriveServer, baseURL: URL) -> [String] {
        [
            "  base URL (api and upload): \(baseURL.absoluteString)",
            "  API:             \(baseURL.absoluteString)/drive/v3/",
            "  uploads:         \(baseURL.absoluteString)/upload/drive/v3/files",
            "  root folder id:  \(server.rootFolderID)",
        ]
    }
}

extension MockDriveServer: MockProviderServer {
    /// The file of ``persistence``, when the mock saves its state.
    public var stateFile: URL? { persistence?.file }
}
