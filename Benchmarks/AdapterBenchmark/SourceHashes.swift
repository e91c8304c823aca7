import Foundation
import Stratus
import StratusDigest

/// The upload sources' hashes (SHA-256, MD5, Dropbox's content hash, QuickXorHash), computed once, which the
/// same-guarantees curl peers must reproduce.
struct SourceHashes: Sendable {
    var full: [HashAlgorithm: String]
    var capped: [HashAlgorithm: String]

    static let algorithms: [HashAlgorithm] = [.sha256, .md5, .dropboxContentHash, .quickXorHash]

    init(source: URL, cappedSource: URL?) throws {
        full = try Digest.hash(fileAt: source, algorithms: Self.algorithms)
        capped = try cappedSource.map { try Digest.hash(fileAt: $0, algorithms: Self.algorithms) } ?? [:]
    }

    /// The check for a provider's curl peer: its hash command, what it must print, its title.
    func check(for provider: Provider, capped: Bool, executable: String) -> CurlClient.HashCheck? {
        let algorithm: HashAlgorithm =
            switch provider {
            case .dropbox: .dropboxContentHash
            case .onedrive: .quickXorHash
            case .drive, .s3, .s3Ceph: .md5
            case .webdav: .sha256
            }
        guard var expected = (capped ? self.capped : full)[algorithm] else { return nil }
        if provider == .onedrive {
            // Graph reports QuickXorHash in base64, and so does the peer's hasher.
            guard let bytes = Self.bytes(hex: expected) else { return nil }
            expected = QuickXorHash.base64(bytes)
        }
        let (command, name) = provider.hashCommand(executable: executable)
        return CurlClient.HashCheck(command: command, expected: expected, title: "curl | \(name) + fsync")
    }

    /// The bytes a hexadecimal text spells, or `nil` when it is not one.
    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        let bytes = stride(from: 0, to: digits.count, by: 2).compactMap { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
        }
        return bytes.count * 2 == digits.count ? bytes : nil
    }
}
