import Foundation
import Stratus
import StratusDigest

/// One recipient stanza of an age header: `-> type arguments...` and its body.
struct AgeStanza: Equatable {
    var type: String
    var arguments: [String]
    var body: [UInt8]
}

/// The header of an age v1 file (age-encryption.org/v1): its stanzas and its MAC, as the spec
/// writes them. Parsing is strict: a header that is not canonical is refused.
struct AgeHeader {
    /// The first line of every age v1 file.
    static let versionLine = "age-encryption.org/v1"
    /// The most a header may take: far more than the one or two stanzas Stratus writes.
    static let maximumLength = 64 * 1024

    var stanzas: [AgeStanza]
    /// The header's MAC, as read.
    var mac: [UInt8]
    /// The bytes the MAC covers: the header up to and including `---`.
    var authenticated: [UInt8]
    /// The header's length in bytes, its final newline included.
    var length: Int

    /// Writes a header for stanzas, MACed with the file key.
    static func encode(_ stanzas: [AgeStanza], fileKey: [UInt8]) throws -> [UInt8] {
        var text = versionLine + "\n"
        for stanza in stanzas {
            text += "-> " + ([stanza.type] + stanza.arguments).joined(separator: " ") + "\n"
            let encoded = Base64Raw.encode(stanza.body)
            var start = encoded.startIndex
            while true {
                let end = encoded.index(start, offsetBy: 64, limitedBy: encoded.endIndex) ?? encoded.endIndex
                text += encoded[start..<end] + "\n"
                // A full line is followed by another, empty if need be: the last line is short.
                if encoded.distance(from: start, to: end) < 64 { break }
                start = end
            }
        }
        text += "---"
        let authenticated = Array(text.utf8)
        let mac = try macOf(authenticated, fileKey: fileKey)
        return authenticated + Array((" " + Base64Raw.encode(mac) + "\n").utf8)
    }

    /// The header MAC: HMAC-SHA256 under HKDF-SHA256(file key, "", "header").
    static func macOf(_ authenticated: [UInt8], fileKey: [UInt8]) throws -> [UInt8] {
        var key = try Primitives.hkdf(fileKey, salt: [], info: "header")
        defer { Primitives.wipe(&key) }
        return HMACSHA256.authenticationCode(for: authenticated, key: key)
    }

    /// Checks the MAC with the file key the stanzas gave.
    func verify(fileKey: [UInt8]) throws {
        let expected = try Self.macOf(authenticated, fileKey: fileKey)
        guard expected.count == mac.count, zip(expected, mac).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else {
            throw AgeFailure.corrupt("its header MAC does not match")
        }
    }

    /// Reads a header from the first bytes of a file.
    /// - Parameters:
    ///   - bytes: The file's first bytes: at least the whole header, or the whole file.
    ///   - isWholeFile: Whether `bytes` is the whole file (then a missing end is a truncation).
    /// - Throws: ``AgeFailure``: not an age file, a newer version, a malformed or oversized header.
    static func parse(_ bytes: [UInt8]) throws -> AgeHeader {
        var position = 0
        func nextLine() throws -> String {
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else {
                throw bytes.count >= maximumLength
                    ? AgeFailure.corrupt("its header is longer than \(maximumLength) bytes")
                    : AgeFailure.corrupt("it ends inside its header")
            }
            let line = bytes[position..<end]
            guard line.allSatisfy({ $0 >= 32 && $0 <= 126 }) else {
                throw AgeFailure.corrupt("its header holds bytes that are not printable ASCII")
            }
            position = end + 1
            return String(decoding: line, as: UTF8.self)
        }
        let first = try nextLine()
        guard first == versionLine else {
            if first.hasPrefix("age-encryption.org/") {
                throw AgeFailure.newerFormat("it is written in \(first.debugDescription), not age v1")
            }
            throw AgeFailure.corrupt("it is not an age file")
        }
        var stanzas: [AgeStanza] = []
        while true {
            let lineStart = position
            let line = try nextLine()
            if line.hasPrefix("--- ") || line == "---" {
                let encodedMAC = String(line.dropFirst(4))
                guard line.hasPrefix("--- "), let mac = Base64Raw.decode(encodedMAC), mac.count == 32 else {
                    throw AgeFailure.corrupt("its header MAC line is malformed")
                }
                return AgeHeader(
                    stanzas: stanzas, mac: mac, authenticated: Array(bytes[..<(lineStart + 3)]), length: position)
            }
            guard line.hasPrefix("-> ") else { throw AgeFailure.corrupt("its header has a malformed line") }
            let words = line.dropFirst(3).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard let type = words.first, words.allSatisfy({ !$0.isEmpty }) else {
                throw AgeFailure.corrupt("a stanza of its header is malformed")
            }
            var encoded = ""
            while true {
                let bodyLine = try nextLine()
                guard bodyLine.count <= 64 else { throw AgeFailure.corrupt("a stanza body line is too long") }
                encoded += bodyLine
                if bodyLine.count < 64 { break }
            }
            guard let body = Base64Raw.decode(encoded) else {
                throw AgeFailure.corrupt("a stanza body is not canonical base64")
            }
            stanzas.append(AgeStanza(type: type, arguments: Array(words.dropFirst()), body: body))
        }
    }
}

/// Standard base64 without padding, as age writes it; decoding refuses non-canonical text.
enum Base64Raw {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard !text.contains("="), text.count % 4 != 1 else { return nil }
        let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: padded) else { return nil }
        let bytes = [UInt8](data)
        return encode(bytes) == text ? bytes : nil
    }
}

/// Why an age file could not be opened, before it is named in a ``/Stratus/ServiceError``.
enum AgeFailure: Error, Equatable {
    /// Truncated, altered, foreign (no stanza opens it) or not age at all.
    case corrupt(String)
    /// A version or stanza this code does not read.
    case newerFormat(String)
    /// The passphrase of an scrypt stanza does not open it.
    case wrongPassphrase
    /// An scrypt work factor beyond what is accepted.
    case tooMuchWork(Int)

    /// The failure as a service error about `what` ("The file x").
    func serviceError(_ what: String) -> ServiceError {
        switch self {
        case .corrupt(let reason):
            ServiceError(.integrityMismatch, "\(what) cannot be decrypted: \(reason).")
        case .newerFormat(let reason):
            ServiceError(.unsupported, "\(what) cannot be read: \(reason).")
        case .wrongPassphrase:
            ServiceError(.unauthorized, "The passphrase does not unlock \(what).")
        case .tooMuchWork(let logN):
            ServiceError(
                .unsupported,
                "\(what) asks for scrypt work factor 2^\(logN), more than the accepted 2^\(AgeRecipients.maximumLogN)."
            )
        }
    }
}
