import Foundation
import Stratus
import StratusDigest

/// What a `crypt` remote keeps in each stored file's custom metadata, sealed: the plain
/// content's SHA-256 and size, and the caller's own metadata. The sealed file's size and a tag
/// of the wrapped service's hash of it bind the record to its content: where a provider keeps
/// one metadata for all versions (or a file was swapped), the record describes another content
/// and is not used for the size and hash.
///
/// Stored compactly, so that it fits the smallest metadata value a provider keeps (Google
/// Drive's 124 bytes of key and value) when the caller adds no metadata of its own: 58 bytes
/// (version, SHA-256, plain size, sealed size, a flag and an 8-byte tag of the sealed hash),
/// then the caller's metadata as JSON if any, sealed with AES-256-SIV (16 bytes more) and
/// written in base64url: 99 characters. Deterministic sealing shows nothing here, since the
/// record holds the hash of a sealed file whose file key and nonce are random.
struct CryptRecord: Equatable {
    /// The custom metadata key of the sealed record in the wrapped service.
    static let metadataKey = "crypt"
    private static let formatVersion: UInt8 = 1
    private static let fixedSize = 58

    var sha256: String
    var size: Int64
    var metadata: [String: String]
    var sealedSize: Int64
    /// The first 8 bytes of SHA-256 over the wrapped service's hash of the sealed file.
    var sealedHashTag: [UInt8]?

    init(sha256: String, size: Int64, metadata: [String: String], sealedSize: Int64, sealedHash: String?) {
        self.sha256 = sha256
        self.size = size
        self.metadata = metadata
        self.sealedSize = sealedSize
        self.sealedHashTag = sealedHash.map(Self.tag)
    }

    private static func tag(_ hash: String) -> [UInt8] {
        Array(Digest.sha256(Array(hash.utf8)).prefix(8))
    }

    /// Whether the record describes this stored content.
    func describes(_ stored: RemoteFile) -> Bool {
        guard sealedSize == stored.size else { return false }
        guard let sealedHashTag, let reported = stored.contentHash?.value else { return true }
        return sealedHashTag == Self.tag(reported)
    }

    /// The sealed record, in base64url.
    func sealed(with key: [UInt8]) throws -> String {
        guard let hash = Hex.decode(sha256), hash.count == 32 else {
            throw ServiceError(.internalError, "A content hash is not a SHA-256.")
        }
        var plain: [UInt8] = [Self.formatVersion] + hash
        plain += Self.bigEndian(size) + Self.bigEndian(sealedSize)
        plain += [sealedHashTag == nil ? 0 : 1] + (sealedHashTag ?? [UInt8](repeating: 0, count: 8))
        if !metadata.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            plain += [UInt8](try encoder.encode(metadata))
        }
        return Base64URL.encode(try Primitives.sivSeal(plain, key: key))
    }

    /// Opens a sealed record; `nil` when it is missing, altered or not ours.
    static func open(_ metadata: [String: String], key: [UInt8]) -> CryptRecord? {
        guard let value = metadata[metadataKey], let bytes = Base64URL.decode(value),
            let plain = Primitives.sivOpen(bytes, key: key), plain.count >= fixedSize, plain[0] == formatVersion
        else { return nil }
        let user: [String: String]
        if plain.count > fixedSize {
            guard let decoded = try? JSONDecoder().decode([String: String].self, from: Data(plain[fixedSize...]))
            else { return nil }
            user = decoded
        } else {
            user = [:]
        }
        var record = CryptRecord(
            sha256: Hex.encode(Array(plain[1..<33])), size: integer(plain[33..<41]), metadata: user,
            sealedSize: integer(plain[41..<49]), sealedHash: nil)
        record.sealedHashTag = plain[49] == 1 ? Array(plain[50..<58]) : nil
        return record
    }

    private static func bigEndian(_ value: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - $0))) }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int64 {
        bytes.reduce(0) { ($0 << 8) | Int64($1) }
    }
}
