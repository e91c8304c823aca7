import Foundation
import Stratus
import StratusDigest

/// The names, URLs and headers of Nextcloud's chunked upload (v2), from Nextcloud's developer
/// documentation ("Chunked file upload"): `MKCOL <dav>/uploads/USER/<transfer id>`, `PUT` of
/// each numbered chunk into it, `MOVE` of its `.file` onto the target, `DELETE` to abort. Every
/// request names the target in `Destination`; the chunks and the MOVE give the total size in
/// `OC-Total-Length`.
enum NextcloudChunkedRequests {
    /// The precondition the assembling MOVE carries for the target.
    enum TargetCondition: Sendable, Equatable {
        /// None: the MOVE writes whatever is there.
        case none
        /// `If-None-Match: *`: nothing may be at the target.
        case mustNotExist
        /// `If-Match: "<etag>"`: the target must still have this ETag.
        case mustMatch(etag: String)
    }

    /// The transfer id of an upload: `stratus-` and 32 hex digits of the SHA-256 of the target
    /// URL, the size, the content's SHA-256 and the chunk size. A later upload of the same
    /// content to the same target (a retry after a lost connection, or after the process died)
    /// finds the upload folder and the chunks already sent; any other upload gets another
    /// folder.
    /// - Parameters:
    ///   - destination: The target's URL.
    ///   - totalSize: The content's size.
    ///   - sha256: The content's SHA-256, lowercase hex.
    ///   - chunkSize: The planned chunk size.
    static func transferID(destination: URL, totalSize: Int64, sha256: String, chunkSize: Int64) -> String {
        let key = "stratus-chunked-v1\n\(destination.absoluteString)\n\(totalSize)\n\(sha256)\n\(chunkSize)"
        return "stratus-" + Hex.encode(Digest.sha256(Data(key.utf8)).prefix(16))
    }

    /// The upload folder of a transfer, `<dav>/uploads/USER/<transfer id>/`, on the host of the
    /// remote's URL.
    /// - Parameters:
    ///   - configuration: The remote's configuration (a Nextcloud files URL).
    ///   - transferID: The transfer id.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when the URL is not in a
    ///   Nextcloud files collection.
    static func uploadFolder(_ configuration: WebDAVConfiguration, transferID: String) throws -> URL {
        guard let layout = configuration.nextcloudLayout,
            var components = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false)
        else {
            throw ServiceError(.invalidConfiguration, "The remote's URL is not in a Nextcloud files collection.")
        }
        components.percentEncodedPath =
            "\(layout.base)/uploads/\(layout.user)/\(WebDAVTransport.encode(transferID))/"
        components.query = nil
        components.fragment = nil
        guard let url = components.url else {
            throw ServiceError(.invalidConfiguration, "No upload folder URL for the transfer \(transferID).")
        }
        return url
    }

    /// The headers of the MKCOL that makes the upload folder.
    static func folderHeaders(destination: URL) -> [(String, String)] {
        [("Destination", destination.absoluteString)]
    }

    /// The headers of a chunk's PUT.
    static func chunkHeaders(destination: URL, totalSize: Int64) -> [(String, String)] {
        [
            ("Destination", destination.absoluteString), ("OC-Total-Length", String(totalSize)),
            ("Content-Type", "application/octet-stream"),
        ]
    }

    /// The headers of the MOVE of `.file` that assembles the chunks into the target.
    /// - Parameters:
    ///   - destination: The target's URL.
    ///   - totalSize: The content's size.
    ///   - modified: The modification time to give the file (`X-OC-Mtime`, Unix seconds).
    ///   - sha256: The content's SHA-256, sent as `OC-Checksum: SHA256:<hex>` for Nextcloud to
    ///     keep with the file (it lists it in `oc:checksums`).
    ///   - condition: The target's precondition.
    static func assemblyHeaders(
        destination: URL, totalSize: Int64, modified: Int64, sha256: String, condition: TargetCondition
    ) -> [(String, String)] {
        var headers = [
            ("Destination", destination.absoluteString), ("OC-Total-Length", String(totalSize)),
            ("X-OC-Mtime", String(modified)), ("OC-Checksum", checksum(sha256: sha256)),
        ]
        switch condition {
        case .none: break
        case .mustNotExist: headers.append(("If-None-Match", "*"))
        case .mustMatch(let etag): headers.append(("If-Match", "\"\(etag)\""))
        }
        return headers
    }

    /// `SHA256:<hex>`, the `OC-Checksum` of content.
    static func checksum(sha256: String) -> String { "SHA256:" + sha256 }

    /// The SHA-256 in an `oc:checksums` value (`SHA1:… MD5:… SHA256:…`, types in any case), or
    /// `nil` when it lists none.
    static func sha256(inChecksums text: String) -> String? {
        for item in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let parts = item.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].uppercased() == "SHA256" { return parts[1].lowercased() }
        }
        return nil
    }
}
