import Foundation
import Stratus

/// Where a Depot server is and how to talk to it.
///
/// The API key is a secret: it goes only into the `Authorization` header of requests to
/// ``baseURL``, and never into a message or a log.
public struct DepotConfiguration: Sendable {
    /// The server's base URL, such as `https://depot.example.com` (a mock's on port 0 in tests).
    public var baseURL: URL
    /// The key sent as `Authorization: Bearer <key>`.
    public var apiKey: String
    /// How many files a listing page asks for (the protocol allows 1...1000).
    public var listPageSize: Int
    /// How many changes a change-feed page asks for (1...1000).
    public var changePageSize: Int
    /// The largest file the server takes in one `PUT` (the protocol's limit is 5 GiB).
    public var maximumUploadSize: Int64
    /// How transient failures are repeated.
    public var retryPolicy: RetryPolicy

    /// Creates a configuration.
    /// - Parameters:
    ///   - baseURL: The server's base URL.
    ///   - apiKey: The API key.
    ///   - listPageSize: Files per listing page; clamped to 1...1000.
    ///   - changePageSize: Changes per change-feed page; clamped to 1...1000.
    ///   - maximumUploadSize: The largest file the server takes.
    ///   - retryPolicy: How transient failures are repeated.
    public init(
        baseURL: URL,
        apiKey: String,
        listPageSize: Int = 500,
        changePageSize: Int = 500,
        maximumUploadSize: Int64 = 5 << 30,
        retryPolicy: RetryPolicy = .standard
    ) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.listPageSize = min(max(listPageSize, 1), 1000)
        self.changePageSize = min(max(changePageSize, 1), 1000)
        self.maximumUploadSize = max(0, maximumUploadSize)
        self.retryPolicy = retryPolicy
    }
}
