import COpenSSL

/// A message digest computed by OpenSSL's EVP interface, named by its OpenSSL algorithm name.
///
/// The public digest classes wrap one of these. Like them it is mutable and not thread-safe.
final class EVPDigest {
    /// The algorithm as fetched from the default provider; freed in `deinit`.
    private let algorithm: OpaquePointer
    /// The running digest context; freed in `deinit`.
    private let context: OpaquePointer
    /// The digest length in bytes.
    let byteCount: Int
    /// The finished digest, once ``finalize()`` has run.
    private var finishedDigest: [UInt8]?

    /// Fetches an algorithm from the default provider and starts a digest.
    ///
    /// Only call it with the names of algorithms the default provider always carries
    /// ("SHA256", "SHA1", "MD5"): a failed fetch stops the process (see ``requireLibcrypto(_:_:)``).
    /// - Parameter openSSLName: The OpenSSL algorithm name.
    init(openSSLName: String) {
        guard let algorithm = EVP_MD_fetch(nil, openSSLName, nil) else {
            libcryptoIsBroken("EVP_MD_fetch(\(openSSLName))")
        }
        guard let context = EVP_MD_CTX_new() else {
            EVP_MD_free(algorithm)
            libcryptoIsBroken("EVP_MD_CTX_new")
        }
        self.algorithm = algorithm
        self.context = context
        self.byteCount = Int(EVP_MD_get_size(algorithm))
        requireLibcrypto(EVP_DigestInit_ex2(context, algorithm, nil) == 1, "EVP_DigestInit_ex2(\(openSSLName))")
    }

    deinit {
        EVP_MD_CTX_free(context)
        EVP_MD_free(algorithm)
    }

    /// Feeds the next piece of the content; ignored once the digest is finished.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard finishedDigest == nil, let start = bytes.baseAddress, !bytes.isEmpty else {
            return
        }
        requireLibcrypto(EVP_DigestUpdate(context, start, bytes.count) == 1, "EVP_DigestUpdate")
    }

    /// Finishes the digest and returns it; later calls return the same bytes.
    func finalize() -> [UInt8] {
        if let finishedDigest {
            return finishedDigest
        }
        let capacity = Int(EVP_MAX_MD_SIZE)
        let digest = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
            var length: UInt32 = 0
            requireLibcrypto(EVP_DigestFinal_ex(context, buffer.baseAddress, &length) == 1, "EVP_DigestFinal_ex")
            initializedCount = Int(length)
        }
        finishedDigest = digest
        return digest
    }

    /// Discards everything fed so far, including a finished digest, and starts over.
    func reset() {
        finishedDigest = nil
        requireLibcrypto(EVP_DigestInit_ex2(context, algorithm, nil) == 1, "EVP_DigestInit_ex2")
    }
}
