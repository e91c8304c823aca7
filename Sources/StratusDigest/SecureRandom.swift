import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's `RAND_bytes`.
public enum SecureRandom {
    /// Returns fresh random bytes.
    /// - Parameter count: How many bytes to return; zero gives an empty array.
    /// - Returns: `count` random bytes.
    /// - Throws: ``DigestError`` if `count` is negative, or with OpenSSL's error string if the
    ///   random generator cannot supply bytes (for example when it cannot be seeded).
    public static func bytes(count: Int) throws(DigestError) -> [UInt8] {
        guard count >= 0 else {
            throw DigestError(message: "Cannot generate a negative number (\(count)) of random bytes")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let generated = bytes.withUnsafeMutableBufferPointer { buffer in
            // RAND_bytes takes an int length, so ask in pieces no larger than that.
            let largestRequest = Int(Int32.max)
            var filled = 0
            while filled < buffer.count, let start = buffer.baseAddress {
                let requestSize = min(buffer.count - filled, largestRequest)
                guard RAND_bytes(start + filled, Int32(requestSize)) == 1 else {
                    return false
                }
                filled += requestSize
            }
            return true
        }
        guard generated else {
            throw DigestError(
                message: "OpenSSL could not generate \(count) random bytes",
                detail: OpenSSLErrorQueue.drain() ?? "RAND_bytes failed without recording an OpenSSL error"
            )
        }
        return bytes
    }
}
