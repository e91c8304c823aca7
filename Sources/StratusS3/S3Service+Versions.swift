import Foundation
public import Stratus
import StratusAdapterKit

/// One entry of `ListObjectVersions`: a version or a delete marker.
struct S3VersionEntry: Sendable {
    var key: String
    var versionID: String
    var isDeleteMarker: Bool
    var isLatest: Bool
    var modified: Date
    var size: Int64
    var etag: String
}

/// Version history through `ListObjectVersions`, `GetObject?versionId=` and restore by
/// `CopyObject` from an old version over the current one.
extension S3Service {
    /// The versions of a file, newest first, from `ListObjectVersions` (delete markers are left
    /// out). Listings carry no custom metadata, so ``/Stratus/FileVersion/contentHash`` is `nil`;
    /// ``/Stratus/Service/download(_:version:to:options:)`` still checks each version's hash.
    public func versions(of path: RemotePath) async throws -> [FileVersion] {
        try await guarded {
            try validateFile(path)
            try requireVersions()
            try await ensureVersioning()
            let key = key(for: path)
            let entries = try await listVersions(prefix: key, stopAfterKey: key)
            let versions = entries.filter { $0.key == key && !$0.isDeleteMarker }.map {
                FileVersion(id: VersionID($0.versionID), size: $0.size, modified: $0.modified, contentHash: nil)
            }
            guard !versions.isEmpty else {
                throw ServiceError(.notFound, "The bucket keeps no version of \(path).")
            }
            return versions
        }
    }

    /// Makes an old version current again: `CopyObject` with
    /// `x-amz-copy-source: bucket/key?versionId=` over the key, which adds a new version
    /// (history only grows). Objects over 5 GiB cannot be copied in one request and are
    /// refused by S3.
    ///
    /// The new version is the answer's `x-amz-version-id`; a server that leaves it out (Ceph 16)
    /// has its new version found by the write stamp this copy gave it
    /// (`x-amz-meta-stratus-written`): the current version when it carries the stamp, else the
    /// first of the key's versions, newest first, that does.
    public func restore(_ path: RemotePath, to version: VersionID) async throws -> RemoteFile {
        try await guarded {
            try validateFile(path)
            try requireVersions()
            try await ensureVersioning()
            let old = try await headDescription(path, version: version.rawValue)
            let key = key(for: path)
            let source =
                "/\(configuration.bucket)/\(SigV4Signer.uriEncode(key, keepSlash: true))?versionId=\(SigV4Signer.uriEncode(version.rawValue, keepSlash: false))"
            let action = "CopyObject of \(path) from version \(version)"
            // REPLACE rather than COPY: the new version needs its own write stamp; the content
            // hash and custom metadata are carried over.
            let stamp = S3ObjectDescription.writtenStamp()
            var headers = [
                ("x-amz-copy-source", source), ("x-amz-metadata-directive", "REPLACE"),
                ("Content-Type", "application/octet-stream"),
                ("x-amz-meta-" + S3ObjectDescription.writtenName, stamp),
            ]
            if let sha256 = old.sha256 { headers.append(("x-amz-meta-" + S3ObjectDescription.sha256Name, sha256)) }
            for (name, value) in old.metadata.sorted(by: { $0.key < $1.key }) {
                headers.append(("x-amz-meta-" + name, S3MetadataCoding.encode(value)))
            }
            let request = S3Transport.Request(method: .put, key: key, headers: headers, action: action)
            let response = try await transport.send(request, repetition: .onlyWhenRefused)
            if let document = try? XMLTree.parse(response.body), document.name == "Error" {
                throw S3ErrorMapping.error(status: 500, body: response.body, action: action, secrets: transport.secrets)
            }
            if let newVersion = response.headers["x-amz-version-id"], !newVersion.isEmpty, newVersion != "null" {
                return try await head(path, version: newVersion)
            }
            return try file(path, from: try await copiedVersion(of: path, stamp: stamp, action: action))
        }
    }

    /// The version of a key a `CopyObject` with the write stamp `stamp` made: the current one
    /// when it carries the stamp (the usual case), else the newest of the key's versions that
    /// does (another writer came after the copy).
    func copiedVersion(of path: RemotePath, stamp: String, action: String) async throws -> S3ObjectDescription {
        let written = Int64(stamp)
        if let current = try await headIfPresent(path), current.written == written { return current }
        let key = key(for: path)
        let entries = try await listVersions(prefix: key, stopAfterKey: key).filter {
            $0.key == key && !$0.isDeleteMarker
        }
        for entry in entries.prefix(Self.copiedVersionSearchLimit) {
            let description = try await headDescription(path, version: entry.versionID)
            if description.written == written { return description }
        }
        throw S3ErrorMapping.undecodable(
            action,
            "the answer has no x-amz-version-id, and none of the newest \(Self.copiedVersionSearchLimit) versions of \(path) carries the copy's write stamp \(stamp)"
        )
    }

    /// How many of a key's newest versions are looked at for the one a copy made.
    static let copiedVersionSearchLimit = 32

    /// Every version and delete marker below a prefix, in S3's order (by key, newest first).
    /// - Parameter stopAfterKey: Stop paging once the listing has passed this key.
    func listVersions(prefix: String, stopAfterKey: String? = nil) async throws -> [S3VersionEntry] {
        var entries: [S3VersionEntry] = []
        var keyMarker: String?
        var versionMarker: String?
        while true {
            var query = [("versions", ""), ("prefix", prefix)]
            if let keyMarker { query.append(("key-marker", keyMarker)) }
            if let versionMarker { query.append(("version-id-marker", versionMarker)) }
            let action = "ListObjectVersions of \(prefix.isEmpty ? "the bucket" : prefix)"
            let document = try await transport.sendXML(
                S3Transport.Request(method: .get, key: nil, query: query, action: action),
                repetition: .safe
            )
            for element in document.children where element.name == "Version" || element.name == "DeleteMarker" {
                guard let key = element.value("Key"), let id = element.value("VersionId"),
                    let modifiedText = element.value("LastModified"), let modified = S3Dates.isoDate(modifiedText)
                else {
                    throw S3ErrorMapping.undecodable(action, "a version lacks Key, VersionId or LastModified")
                }
                entries.append(
                    S3VersionEntry(
                        key: key,
                        versionID: id,
                        isDeleteMarker: element.name == "DeleteMarker",
                        isLatest: element.value("IsLatest") == "true",
                        modified: modified,
                        size: element.value("Size").flatMap { Int64($0) } ?? 0,
                        etag: element.value("ETag").map(S3ObjectDescription.unquoted) ?? ""
                    ))
            }
            guard document.value("IsTruncated") == "true" else { return entries }
            if let stopAfterKey, let last = entries.last, stopAfterKey.utf8.lexicographicallyPrecedes(last.key.utf8) {
                return entries
            }
            keyMarker = document.value("NextKeyMarker")
            versionMarker = document.value("NextVersionIdMarker")
            guard keyMarker != nil else { return entries }
        }
    }
}
