import Stratus
import StratusAdapterKit
import StratusDigest

extension UploadContent {
    /// The Dropbox `content_hash` of a range, read in one streaming pass.
    /// - Parameter range: The bytes to hash.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read or is
    ///   shorter than it was.
    func contentHash(_ range: Range<Int64>) throws -> String {
        guard let hash = try hexDigests([.dropboxContentHash], of: range)[.dropboxContentHash] else {
            throw ServiceError(.localFile, "The content to upload could not be hashed.")
        }
        return hash
    }
}
