/// Bech32 (BIP 173) as age writes its recipients (`age1...`) and identities
/// (`AGE-SECRET-KEY-1...`): no length limit, one case per string.
enum Bech32 {
    private static let alphabet = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        let generator: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
        var checksum: UInt32 = 1
        for value in values {
            let top = checksum >> 25
            checksum = (checksum & 0x1ff_ffff) << 5 ^ UInt32(value)
            for index in 0..<5 where (top >> UInt32(index)) & 1 == 1 {
                checksum ^= generator[index]
            }
        }
        return checksum
    }

    private static func expand(_ prefix: [UInt8]) -> [UInt8] {
        prefix.map { $0 >> 5 } + [0] + prefix.map { $0 & 31 }
    }

    /// Regroups bits: 8 to 5 with padding, or 5 to 8 refusing leftover bits.
    private static func convert(_ data: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var accumulator = 0
        var bits = 0
        var out: [UInt8] = []
        let mask = (1 << to) - 1
        for value in data {
            guard Int(value) >> from == 0 else { return nil }
            accumulator = (accumulator << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((accumulator >> bits) & mask))
            }
            accumulator &= (1 << bits) - 1
        }
        if pad {
            if bits > 0 { out.append(UInt8((accumulator << (to - bits)) & mask)) }
        } else if bits >= from || (accumulator << (to - bits)) & mask != 0 {
            return nil
        }
        return out
    }

    /// Encodes bytes under a lower-case prefix, in lower case.
    static func encode(prefix: String, _ data: [UInt8]) -> String {
        let prefixBytes = Array(prefix.utf8)
        let values = convert(data, from: 8, to: 5, pad: true) ?? []
        let check = polymod(expand(prefixBytes) + values + [0, 0, 0, 0, 0, 0]) ^ 1
        let checksum = (0..<6).map { UInt8((check >> (5 * (5 - UInt32($0)))) & 31) }
        return prefix + "1" + String(decoding: (values + checksum).map { alphabet[Int($0)] }, as: UTF8.self)
    }

    /// Decodes a string in one case: its lower-case prefix and its bytes, or `nil`.
    static func decode(_ string: String) -> (prefix: String, data: [UInt8])? {
        let bytes = Array(string.utf8)
        guard bytes.allSatisfy({ $0 >= 33 && $0 <= 126 }) else { return nil }
        let lowered = string.lowercased()
        guard lowered == string || string.uppercased() == string else { return nil }
        let lower = Array(lowered.utf8)
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator >= 1, lower.count - separator > 6
        else { return nil }
        let prefix = Array(lower[..<separator])
        var values: [UInt8] = []
        for character in lower[(separator + 1)...] {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            values.append(UInt8(index))
        }
        guard polymod(expand(prefix) + values) == 1 else { return nil }
        guard let data = convert(Array(values.dropLast(6)), from: 5, to: 8, pad: false) else { return nil }
        return (String(decoding: prefix, as: UTF8.self), data)
    }
}
