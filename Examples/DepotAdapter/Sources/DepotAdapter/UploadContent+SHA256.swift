import StratusAdapterKit
import StratusDigest

extension UploadContent {
    /// The lowercase hex SHA-256 of the whole content, read in one streaming pass: Depot wants it
    /// in `Depot-Content-SHA256` before the body, to refuse bytes damaged on the way.
    /// - Throws: ``Stratus/ServiceError/Code/localFile`` when the file cannot be read or became
    ///   shorter.
    func sha256() throws -> String {
        let digest = SHA256Digest()
        try read(0..<size) { _, bytes in digest.update(bytes) }
        return digest.finalizeHex()
    }
}
