public import Stratus

/// Encrypts file and folder names one path segment at a time, deterministically, so a path
/// always encrypts to the same stored path: AES-256-SIV (RFC 5297) with no associated data,
/// written in lower-case base32 without padding (RFC 4648), which every provider accepts and
/// which case-insensitive providers keep apart.
///
/// A name of `n` bytes is stored as `ceil((n + 16) × 8 / 5)` characters: 16 bytes of synthetic
/// IV, then the base32 expansion of 8/5. Under the common 255-byte limit the longest plain name
/// is therefore 143 bytes (see ``longestPlainName(storedLimit:)``).
struct NameCipher: Sendable {
    /// The AES-256-SIV key (64 bytes), derived from the identity.
    private let key: [UInt8]

    init(identity: AgeIdentity) throws {
        key = try Primitives.hkdf(identity.secret, salt: [], info: "stratus-crypt/v1/names", count: 64)
    }

    /// The longest plain name (in UTF-8 bytes) whose stored name fits a provider's limit.
    static func longestPlainName(storedLimit: Int) -> Int {
        max(0, storedLimit * 5 / 8 - Primitives.tagSize)
    }

    /// The stored length of a plain name of `count` bytes.
    static func storedLength(ofPlain count: Int) -> Int {
        ((count + Primitives.tagSize) * 8 + 4) / 5
    }

    func encrypt(_ name: String) throws -> String {
        Base32.encode(try Primitives.sivSeal(Array(name.utf8), key: key))
    }

    /// The plain name, or `nil` for a name this key did not write.
    func decrypt(_ stored: String) -> String? {
        guard let box = Base32.decode(stored), let plain = Primitives.sivOpen(box, key: key) else { return nil }
        return String(validating: plain, as: UTF8.self)
    }
}

/// RFC 4648 base32, lower case, without padding; decoding refuses anything not canonical.
enum Base32 {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[(buffer >> bits) & 31])
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> bits) & 0xff))
            }
            buffer &= (1 << bits) - 1
        }
        guard bits < 5, buffer == 0 else { return nil }
        return out
    }
}
