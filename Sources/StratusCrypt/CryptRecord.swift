import Foundation
import Stratus
import StratusDigest

/// What a `crypt` remote keeps in each stored file's custom metadata, sealed: the plain
/// content's SHA-256 and size, and the caller's own metadata. The sealed file's size and the
/// wrapped service's hash of it bind the record to its content: where a provider keeps one
/// metadata for all versions (or a file was swapped), the record describes another content and
/// is not used for the size and hash. Sealed with ChaCha20-Poly1305
/// under a key derived from the identity and a random nonce, so equal contents do not show.
struct CryptRecord: Codable, Equatable {
    /// The custom metadata key of the sealed record in the wrapped service.
    static let metadataKey = "crypt"

    var version = 1
    var sha256: String
    var size: Int64
    var metadata: [String: String]
    var sealedSize: Int64
    var sealedHash: String?

    /// Whether the record describes this stored content.
    func describes(_ stored: RemoteFile) -> Bool {
        guard sealedSize == stored.size else { return false }
        guard let sealedHash, let reported = stored.contentHash?.value else { return true }
        return sealedHash == reported
    }

    /// The sealed record: base64url of nonce, ciphertext and tag.
    func sealed(with key: [UInt8]) throws -> String {
        let plain = try JSONEncoder().encode(self)
        let nonce = try Primitives.random(12)
        return Base64URL.encode(nonce + (try Primitives.seal([UInt8](plain), key: key, nonce: nonce)))
    }

    /// Opens a sealed record; `nil` when it is missing, altered or not ours.
    static func open(_ metadata: [String: String], key: [UInt8]) -> CryptRecord? {
        guard let value = metadata[metadataKey], let bytes = Base64URL.decode(value), bytes.count > 12 + 16,
            let plain = Primitives.open(Array(bytes[12...]), key: key, nonce: Array(bytes[..<12])),
            let record = try? JSONDecoder().decode(CryptRecord.self, from: Data(plain)), record.version == 1
        else { return nil }
        return record
    }
}
