import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP

/// A ``Stratus/Service`` for a Depot server (see `PROTOCOL.md`), built on Stratus's public
/// adapter kit.
///
/// What Depot can do, declared in ``capabilities``: conditional writes are atomic (the server
/// checks `If-None-Match` / `If-Match` and stores the file in one step, after the whole body
/// arrived and its SHA-256 matched); the change feed is the server's own log; the server keeps
/// no old versions and no custom metadata, so ``versions(of:)``, ``restore(_:to:)`` and an
/// upload with metadata throw ``Stratus/ServiceError/Code/unsupported``. A file is sent in one
/// `PUT` of at most ``DepotConfiguration/maximumUploadSize`` bytes.
public final class DepotService: Service {
    /// The service's name in messages.
    static let name = "Depot"

    /// Where the server is and how to talk to it.
    public let configuration: DepotConfiguration
    let http: StratusHTTPClient

    /// Creates a service.
    /// - Parameters:
    ///   - configuration: The server and the API key.
    ///   - http: The HTTP client to share; a new one by default.
    /// - Throws: ``Stratus/ServiceError/Code/invalidConfiguration`` when no HTTP client can be
    ///   made.
    public init(configuration: DepotConfiguration, http: StratusHTTPClient? = nil) throws {
        self.configuration = configuration
        self.http = try StratusHTTPClient.forService(http, named: Self.name)
    }

    /// Depot's capabilities, as the type's documentation explains them.
    public var capabilities: ServiceCapabilities {
        ServiceCapabilities(
            hashAlgorithm: .sha256,
            // One PUT carries the whole file: there is no chunked upload, and a larger file is
            // refused with `payloadTooLarge` before anything is sent.
            largestSingleUpload: configuration.maximumUploadSize,
            chunkSize: configuration.maximumUploadSize,
            conditionalWrites: .atomic,
            supportsVersions: false,
            changeFeed: .native,
            supportsCustomMetadata: false,
            pathRules: PathRules(isCaseSensitive: true, maximumComponentLength: 255),
            supportsChunkedUpload: false
        )
    }

    /// Depot keeps no old versions.
    /// - Throws: ``Stratus/ServiceError/Code/unsupported``.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        throw ServiceError(.unsupported, "Depot keeps no old versions of \(path).")
    }

    /// Depot keeps no old versions.
    /// - Throws: ``Stratus/ServiceError/Code/unsupported``.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        throw ServiceError(.unsupported, "Depot keeps no old versions of \(path).")
    }
}
