import StratusDigest

/// Fresh random text for the secrets a mock hands out (tokens, codes, the control token).
public enum RandomText {
    /// URL-safe Base64 of `count` fresh random bytes from OpenSSL, or from the system generator
    /// should OpenSSL fail (both are cryptographically secure).
    /// - Parameter count: How many random bytes; the text is about 4/3 as long.
    public static func make(bytes count: Int) -> String {
        if let bytes = try? SecureRandom.bytes(count: count) {
            return Base64URL.encode(bytes)
        }
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
