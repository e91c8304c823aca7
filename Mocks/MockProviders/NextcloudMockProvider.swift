import Foundation
import MockNextcloud
import MockOAuth
import MockSupport

/// The Nextcloud mock: its WebDAV dialect for one user who signs in with HTTP Basic.
public struct NextcloudMockProvider: MockProvider {
    /// The user the mock accepts.
    public var user: String
    /// That user's password.
    public var password: String
    /// The largest body one PUT may carry, if limited.
    public var largestSinglePut: Int64?
    /// How long an unused upload folder lives; Nextcloud's 24 hours when `nil`.
    public var uploadExpiry: Duration?

    /// Creates the description.
    /// - Parameters:
    ///   - user: The user the mock accepts (`stratus`).
    ///   - password: That user's password (by default a random one).
    ///   - largestSinglePut: The largest body one PUT may carry (no limit by default).
    ///   - uploadExpiry: How long an unused upload folder lives; `nil` for Nextcloud's 24 hours.
    public init(
        user: String = "stratus", password: String = UUID().uuidString.lowercased(), largestSinglePut: Int64? = nil,
        uploadExpiry: Duration? = nil
    ) {
        self.user = user
        self.password = password
        self.largestSinglePut = largestSinglePut
        self.uploadExpiry = uploadExpiry
    }

    /// `nextcloud`.
    public var name: String { "nextcloud" }

    /// Dropbox's: Nextcloud signs in with HTTP Basic, so the authorization server goes unused.
    public var authorizationFlavor: MockAuthorizationServer.Flavor { .dropbox }

    /// Builds a ``MockNextcloudServer``; it keeps its state in memory whatever the settings say.
    public func makeServer(storage: URL, authorization: MockAuthorizationServer, settings: MockServerSettings) throws
        -> MockNextcloudServer
    {
        try MockNextcloudServer(
            storageDirectory: storage, user: user, password: password, largestSinglePut: largestSinglePut,
            uploadExpiry: uploadExpiry ?? .seconds(24 * 3600))
    }

    /// The user's files folder, `/remote.php/dav/files/<user>/`.
    public func apiURL(of server: MockNextcloudServer, baseURL: URL) -> URL {
        baseURL.appending(path: server.filesPath)
    }

    /// The user and password.
    public var basicSignIn: (user: String, password: String)? { (user, password) }

    /// The files, versions and uploads URLs, the PUT limit, and the user's sign-in.
    public func summary(of server: MockNextcloudServer, baseURL: URL) -> [String] {
        let base = baseURL.absoluteString
        return [
            "  files:           \(base)\(server.filesPath)",
            "  versions:        \(base)/remote.php/dav/versions/\(user)/versions/FILEID",
            "  uploads:         \(base)/remote.php/dav/uploads/\(user)/  (chunked upload v2)",
            "  largest PUT:     " + (largestSinglePut.map { "\($0) bytes (413 above it)" } ?? "no limit"),
            "  user:            \(user)",
            "  password:        \(password)",
        ]
    }
}

extension MockNextcloudServer: MockProviderServer {
    /// None: the Nextcloud mock keeps its state in memory only.
    public var stateFile: URL? { nil }

    /// Saves nothing: the Nextcloud mock keeps its state in memory only.
    public func saveState() async throws {}
}
