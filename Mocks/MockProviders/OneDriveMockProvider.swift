import Foundation
import MockOAuth
import MockOneDrive
import MockSupport

/// The OneDrive mock (Microsoft Graph): the Graph host with Microsoft's identity platform, and
/// a content host for download and upload session URLs on a port of its own.
public struct OneDriveMockProvider: MockProvider {
    /// The mock's options; their scheme becomes `https` when the mock is served over TLS.
    public var options: MockOneDriveServer.Options

    /// Creates the description.
    /// - Parameter options: The mock's options.
    public init(options: MockOneDriveServer.Options = .init()) {
        self.options = options
    }

    /// `onedrive`.
    public var name: String { "onedrive" }

    /// Microsoft's, which replaces the refresh token on every refresh.
    public var authorizationFlavor: MockAuthorizationServer.Flavor { .microsoft }

    /// Builds a ``MockOneDriveServer``.
    public func makeServer(storage: URL, authorization: MockAuthorizationServer, settings: MockServerSettings) throws
        -> MockOneDriveServer
    {
        try MockOneDriveServer(
            storageDirectory: storage, authorization: authorization, options: settings.secured(options),
            persistence: settings.persistence)
    }

    /// `/v1.0` under the base URL.
    public func apiURL(of server: MockOneDriveServer, baseURL: URL) -> URL { baseURL.appending(path: "v1.0") }

    /// The Graph API, the content host, the drive and its app folder, and the delta-expiry route.
    public func summary(of server: MockOneDriveServer, baseURL: URL) -> [String] {
        let driveID = server.driveID
        let base = baseURL.absoluteString
        return [
            "  Graph API:       \(base)/v1.0/  (me/drive, drives/\(driveID))",
            "  content host:    \(server.contentBaseURL?.absoluteString ?? "?")  (download, upload session and copy monitor URLs; \(server.options.strictClient ? "refuses Authorization" : "ignores Authorization"))",
            "  drive id:        \(driveID)",
            "  app folder:      /Apps/\(server.options.appFolderName)  (special/approot)",
            "  delta expiry:    POST \(base)/__stratus/onedrive/expire-delta-tokens  (control token)",
        ]
    }
}

extension MockOneDriveServer: MockProviderServer {
    /// The file of ``persistence``, when the mock saves its state.
    public var stateFile: URL? { persistence?.file }

    /// The host of download and upload session URLs.
    public var contentHost: MockContentHost? {
        MockContentHost(addRoutes: { self.addContentRoutes(to: $0) }, started: { self.setContentBaseURL($0) })
    }
}
