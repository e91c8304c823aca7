import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest

/// The digests S3 requests carry.
extension UploadContent {
    /// The digests of one range: SHA-256 (signed as `x-amz-content-sha256`) and MD5 (sent as
    /// `Content-MD5`, and a part's ETag).
    struct RangeDigests: Sendable, Equatable {
        /// The bytes digested.
        var range: Range<Int64>
        /// Their SHA-256, lowercase hex.
        var sha256: String
        /// Their MD5.
        var md5: [UInt8]

        /// The MD5 as lowercase hex, as S3 writes a part's ETag.
        var md5Hex: String { Hex.encode(md5) }
        /// The MD5 in base64, as `Content-MD5` carries it.
        var md5Base64: String { Data(md5).base64EncodedString() }
    }

    /// Reads the content once and digests it whole (SHA-256) and in ranges of `partSize`.
    /// - Returns: The whole content's SHA-256 (hex) and each range's digests.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read or is
    ///   shorter than it was; `cancelled` when the task is cancelled.
    func digests(partSize: Int64) throws -> (sha256: String, parts: [RangeDigests]) {
        let whole = SHA256Digest()
        var parts: [RangeDigests] = []
        var start: Int64 = 0
        repeat {
            let end = min(size, start + partSize)
            let sha = SHA256Digest()
            let md5 = MD5Digest()
            try read(start..<end) { _, bytes in
                whole.update(bytes)
                sha.update(bytes)
                md5.update(bytes)
            }
            parts.append(RangeDigests(range: start..<end, sha256: Hex.encode(sha.finalize()), md5: md5.finalize()))
            start = end
            if Task.isCancelled { throw ServiceError(.cancelled, "The upload was cancelled.") }
        } while start < size
        return (Hex.encode(whole.finalize()), parts)
    }
}
