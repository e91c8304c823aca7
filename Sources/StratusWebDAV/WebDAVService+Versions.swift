import Foundation
public import Stratus

/// Versions: kept by Nextcloud only (see ``WebDAVConfiguration/Vendor/nextcloud``); other
/// servers keep none, and ``/Stratus/ServiceCapabilities/supportsVersions`` is false there.
extension WebDAVService {
    /// The versions of a file, newest first. See ``/Stratus/Service/versions(of:)``.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        try await guarded {
            try validateFile(path)
            guard configuration.vendor == .nextcloud else { throw Self.noVersions }
            return try await nextcloudVersions(path)
        }
    }

    /// Makes an old version current. See ``/Stratus/Service/restore(_:to:)``.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        try await guarded {
            try validateFile(path)
            guard configuration.vendor == .nextcloud else { throw Self.noVersions }
            return try await nextcloudRestore(path, to: version)
        }
    }

    static var noVersions: ServiceError {
        ServiceError(
            .unsupported, "This WebDAV server keeps no versions (only Nextcloud's versions endpoint is supported).")
    }
}
