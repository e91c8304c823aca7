import COpenSSL
public import Foundation

/// An HMAC-SHA256 message authentication code (RFC 2104, 32 bytes) computed incrementally by
/// OpenSSL's `EVP_MAC` interface.
///
/// Like the digests it is mutable and not thread-safe: one caller owns it at a time.
public final class HMACSHA256 {
    /// The length of the code in bytes.
    public static let byteCount = 32

    /// The MAC context, keyed in `init`; freed in `deinit`.
    private let context: OpaquePointer
    /// The finished code, once ``finalize()`` has run.
    private var finishedCode: [UInt8]?

    /// Starts a code under a secret key.
    /// - Parameter key: The secret key, of any length (longer than 64 bytes is hashed first,
    ///   as RFC 2104 specifies).
    public init<Key: ContiguousBytes>(key: Key) {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else {
            libcryptoIsBroken("EVP_MAC_fetch(HMAC)")
        }
        // The context keeps its own reference to the MAC.
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else {
            libcryptoIsBroken("EVP_MAC_CTX_new")
        }
        self.context = context
        let keyed = key.withUnsafeBytes { keyBytes in
            "SHA256".withCString { digestName in
                let parameters = [stratus_mac_digest_param(digestName), stratus_param_end()]
                // An empty key still needs a non-null pointer, or OpenSSL skips setting the key.
                guard let keyStart = keyBytes.baseAddress, !keyBytes.isEmpty else {
                    let noKeyByte: UInt8 = 0
                    return withUnsafePointer(to: noKeyByte) { EVP_MAC_init(context, $0, 0, parameters) }
                }
                return EVP_MAC_init(context, keyStart.assumingMemoryBound(to: UInt8.self), keyBytes.count, parameters)
            }
        }
        // HMAC accepts keys of every length, so only a broken libcrypto refuses one.
        requireLibcrypto(keyed == 1, "EVP_MAC_init(HMAC-SHA256)")
    }

    deinit {
        EVP_MAC_CTX_free(context)
    }

    /// Feeds the next piece of the message; ignored after ``finalize()``.
    /// - Parameter bytes: The bytes, in order after all earlier pieces.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard finishedCode == nil, let start = bytes.baseAddress, !bytes.isEmpty else {
            return
        }
        let fed = EVP_MAC_update(context, start.assumingMemoryBound(to: UInt8.self), bytes.count)
        requireLibcrypto(fed == 1, "EVP_MAC_update(HMAC-SHA256)")
    }

    /// Feeds the next piece of the message; ignored after ``finalize()``.
    /// - Parameter bytes: Any contiguous byte collection.
    public func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Finishes the computation and returns the 32 code bytes; later calls return the same bytes.
    public func finalize() -> [UInt8] {
        if let finishedCode {
            return finishedCode
        }
        let capacity = Self.byteCount
        let code = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initializedCount in
            var length = 0
            let finished = EVP_MAC_final(context, buffer.baseAddress, &length, capacity)
            requireLibcrypto(finished == 1 && length == capacity, "EVP_MAC_final(HMAC-SHA256)")
            initializedCount = length
        }
        finishedCode = code
        return code
    }

    /// Finishes the computation and returns the code as lowercase hexadecimal.
    public func finalizeHex() -> String {
        Hex.encode(finalize())
    }

    /// The HMAC-SHA256 code of a whole message.
    /// - Parameters:
    ///   - data: The message.
    ///   - key: The secret key.
    /// - Returns: The 32 code bytes.
    public static func authenticationCode<Key: ContiguousBytes, Data: ContiguousBytes>(for data: Data, key: Key)
        -> [UInt8]
    {
        let mac = HMACSHA256(key: key)
        mac.update(data)
        return mac.finalize()
    }
}
