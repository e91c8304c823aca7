import Foundation
import MockDropbox
import MockOAuth
import MockSupport

/// The Dropbox mock: API, content and notify hosts on one base URL, with a Dropbox-flavoured
/// authorization server.
public struct DropboxMockProvider: MockProvider {
    /// The mock's options.
    public var options: MockDropboxServer.Options

    /// Creates the description.
    /// - Parameter options: The mock's options.
    public init(options: MockDropboxServer.Options = .init()) {
        self.options = options
    }

    /// `dropbox`.
    public var name: String { "dropbox" }

    /// Dropbox's.
    public var authorizationFlavor: MockAuthorizationServer.Flavor { .dropbox }

    /// Builds a ``MockDropboxServer``.
    public func makeServer(storage: URL, authorization: MockAuthorizationServer, settings: MockServerSettings) throws
        -> MockDropboxServer
    {
        try MockDropboxServer(
            storageDirectory: storage, authorization: authorization, options: options,
            persistence: settings.persistence)
    }

    /// The base URL: every route sits at its root.
    public func apiURL(of server: MockDropboxServer, baseURL: URL) -> URL { baseURL }

    /// The hosts and whether writes contend.
    public func summary(of server: MockDropboxServer, baseURL: URL) -> [String] {
        [
            "  base URL (api, content and notify hosts): \(baseURL.absoluteString)",
            options.writeContention != nil
                ? "  write contention: on (429 too_many_write_operations past 2 overlapping commits)"
                : "  write contention: off",
        ]
    }
}

extension MockDropboxServer: MockProviderServer {
    /// The file of ``persistence``, when the mock saves its state.
    public var stateFile: URL? { persistence?.file }
}
