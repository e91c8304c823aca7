import COpenSSL
import Stratus
import StratusDigest

/// The OpenSSL 3 primitives the age format and the name cipher are built from, through the
/// COpenSSL shim. Every failure of OpenSSL itself is ``/Stratus/ServiceError/Code/internalError``;
/// a failed authentication is `nil`, for the caller to name.
enum Primitives {
    /// The size of a ChaCha20-Poly1305 or AES-SIV tag.
    static let tagSize = 16

    /// HKDF-SHA256 with an empty salt when `salt` is empty.
    static func hkdf(_ ikm: [UInt8], salt: [UInt8], info: String, count: Int = 32) throws -> [UInt8] {
        try hkdf(ikm, salt: salt, info: Array(info.utf8), count: count)
    }

    /// HKDF-SHA256 with binary info.
    static func hkdf(_ ikm: [UInt8], salt: [UInt8], info: [UInt8], count: Int = 32) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { out in
            stratus_hkdf_sha256(ikm, ikm.count, salt, salt.count, info, info.count, out.baseAddress, count)
        }
        guard ok == 1 else { throw failure("HKDF-SHA256") }
        return out
    }

    /// scrypt with r = 8, p = 1 and N = 2^logN.
    static func scrypt(_ password: [UInt8], salt: [UInt8], logN: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = out.withUnsafeMutableBufferPointer { out in
            stratus_scrypt(password, password.count, salt, salt.count, UInt32(clamping: logN), out.baseAddress, 32)
        }
        guard ok == 1 else { throw failure("scrypt") }
        return out
    }

    /// The X25519 public key of a private scalar.
    static func x25519PublicKey(_ privateKey: [UInt8]) throws -> [UInt8] {
        guard privateKey.count == 32 else { throw failure("X25519 (a private key of \(privateKey.count) bytes)") }
        var out = [UInt8](repeating: 0, count: 32)
        let ok = out.withUnsafeMutableBufferPointer { stratus_x25519_public(privateKey, $0.baseAddress) }
        guard ok == 1 else { throw failure("X25519") }
        return out
    }

    /// X25519(private, peer), or `nil` when the peer's share is invalid (an all-zero result).
    static func x25519(_ privateKey: [UInt8], _ peer: [UInt8]) -> [UInt8]? {
        guard privateKey.count == 32, peer.count == 32 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        let ok = out.withUnsafeMutableBufferPointer { stratus_x25519(privateKey, peer, $0.baseAddress) }
        return ok == 1 ? out : nil
    }

    /// ChaCha20-Poly1305 with a 32-byte key and a 12-byte nonce: the ciphertext, then the tag.
    static func seal(_ plaintext: UnsafeRawBufferPointer, key: [UInt8], nonce: [UInt8]) throws -> [UInt8] {
        precondition(key.count == 32 && nonce.count == 12)
        var out = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        let ok = out.withUnsafeMutableBufferPointer { out in
            stratus_chacha20_poly1305_seal(
                key, nonce, plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), plaintext.count,
                out.baseAddress)
        }
        guard ok == 1 else { throw failure("ChaCha20-Poly1305") }
        return out
    }

    /// ``seal(_:key:nonce:)`` of bytes.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws -> [UInt8] {
        try plaintext.withUnsafeBytes { try seal($0, key: key, nonce: nonce) }
    }

    /// Opens a ChaCha20-Poly1305 box, or `nil` when its tag does not match.
    static func open(_ box: UnsafeRawBufferPointer, key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard key.count == 32, nonce.count == 12, box.count >= tagSize, let base = box.baseAddress else { return nil }
        let length = box.count - tagSize
        var out = [UInt8](repeating: 0, count: length)
        let ok = out.withUnsafeMutableBufferPointer { out in
            stratus_chacha20_poly1305_open(
                key, nonce, base.assumingMemoryBound(to: UInt8.self), length, out.baseAddress)
        }
        return ok == 1 ? out : nil
    }

    /// ``open(_:key:nonce:)`` of bytes.
    static func open(_ box: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        box.withUnsafeBytes { open($0, key: key, nonce: nonce) }
    }

    /// AES-256-SIV with a 64-byte key: the synthetic IV, then the ciphertext.
    static func sivSeal(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        precondition(key.count == 64)
        guard !plaintext.isEmpty else { throw failure("AES-SIV (empty input)") }
        var out = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        let ok = out.withUnsafeMutableBufferPointer {
            stratus_aes_siv_seal(key, plaintext, plaintext.count, $0.baseAddress)
        }
        guard ok == 1 else { throw failure("AES-256-SIV") }
        return out
    }

    /// Opens an AES-256-SIV box, or `nil` when it does not authenticate.
    static func sivOpen(_ box: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard key.count == 64, box.count > tagSize else { return nil }
        var out = [UInt8](repeating: 0, count: box.count - tagSize)
        let ok = out.withUnsafeMutableBufferPointer {
            stratus_aes_siv_open(key, box, box.count - tagSize, $0.baseAddress)
        }
        return ok == 1 ? out : nil
    }

    /// Random bytes from OpenSSL's generator.
    static func random(_ count: Int) throws -> [UInt8] {
        do {
            return try SecureRandom.bytes(count: count)
        } catch {
            throw ServiceError(.internalError, "OpenSSL could not generate random bytes.")
        }
    }

    /// Overwrites key material in place.
    static func wipe(_ bytes: inout [UInt8]) {
        let count = bytes.count
        bytes.withUnsafeMutableBytes { stratus_cleanse($0.baseAddress, count) }
    }

    private static func failure(_ what: String) -> ServiceError {
        ServiceError(.internalError, "OpenSSL's \(what) failed; is libcrypto OpenSSL 3?")
    }
}
