import Foundation
import Stratus
import StratusDigest

/// The upload sources' hashes (SHA-256, MD5, Dropbox's content hash), computed once, which the
/// same-guarantees curl peers must reproduce.
struct SourceHashes: Sendable {
    var full: [HashAlgorithm: String]
    var capped: [HashAlgorithm: String]

    static let algorithms: [HashAlgorithm] = [.sha256, .md5, .dropboxContentHash]

    init(source: URL, cappedSource: URL?) throws {
        full = try Digest.hash(fileAt: source, algorithms: Self.algorithms)
        capped = try cappedSource.map { try Digest.hash(fileAt: $0, algorithms: Self.algorithms) } ?? [:]
    }

    /// The check for a provider's curl peer: its hash command, what it must print, its title.
    func check(for provider: Provider, capped: Bool, executable: String) -> CurlClient.HashCheck? {
        let algorithm: HashAlgorithm =
            switch provider {
            case .dropbox: .dropboxContentHash
            case .drive, .s3, .s3Ceph: .md5
            case .webdav: .sha256
            }
        guard let expected = (capped ? self.capped : full)[algorithm] else { return nil }
        let (command, name) = provider.hashCommand(executable: executable)
        return CurlClient.HashCheck(command: command, expected: expected, title: "curl | \(name) + fsync")
    }
}
