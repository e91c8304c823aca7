import Foundation
import Stratus

/// The payload of an age v1 file: a 16-byte nonce, then the content in 64 KiB chunks sealed
/// with ChaCha20-Poly1305 under the STREAM construction (an 11-byte big-endian chunk counter and
/// a last-chunk flag as the nonce). Content streams through: at most two chunks are held.
enum AgeStream {
    /// Reads up to a number of bytes; fewer only at the end of the input.
    typealias Reader = (Int) throws -> [UInt8]
    /// Writes bytes.
    typealias Writer = ([UInt8]) throws -> Void

    /// The plaintext size of a chunk (the last may be shorter).
    static let chunkSize = 65536
    /// A sealed chunk: the chunk and its tag.
    static let sealedChunkSize = chunkSize + Primitives.tagSize
    /// The header of a file with one X25519 stanza, and the payload nonce: what every file
    /// Stratus writes carries before its chunks.
    static let x25519Overhead: Int64 = 168 + 16

    /// The nonce of chunk `counter`.
    static func chunkNonce(_ counter: UInt64, last: Bool) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 {
            nonce[10 - index] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(index)))
        }
        nonce[11] = last ? 1 : 0
        return nonce
    }

    /// Encrypts everything `read` gives into an age file written to `write`.
    /// - Parameters:
    ///   - read: The plaintext.
    ///   - write: Receives the age file.
    ///   - stanzas: Wraps the new file key into the header's stanzas.
    ///   - observe: Sees each plaintext chunk (to hash it).
    /// - Returns: The plaintext size.
    @discardableResult
    static func encrypt(
        read: Reader, write: Writer, stanzas: ([UInt8]) throws -> [AgeStanza], observe: ([UInt8]) -> Void = { _ in }
    ) throws -> Int64 {
        var fileKey = try Primitives.random(16)
        defer { Primitives.wipe(&fileKey) }
        try write(AgeHeader.encode(try stanzas(fileKey), fileKey: fileKey))
        let nonce = try Primitives.random(16)
        try write(nonce)
        var payloadKey = try Primitives.hkdf(fileKey, salt: nonce, info: "payload")
        defer { Primitives.wipe(&payloadKey) }
        var counter: UInt64 = 0
        var total: Int64 = 0
        var current = try read(chunkSize)
        while true {
            try Task.checkCancellation()
            let next = current.count == chunkSize ? try read(chunkSize) : []
            let last = next.isEmpty
            observe(current)
            try write(Primitives.seal(current, key: payloadKey, nonce: chunkNonce(counter, last: last)))
            total += Int64(current.count)
            if last { return total }
            counter += 1
            current = next
        }
    }

    /// Decrypts an age file from `read` into `write`, chunk by chunk.
    ///
    /// Nothing unauthenticated reaches `write`; but a file that fails late has had its earlier,
    /// authentic chunks written, so write to a staging file and keep it only on success.
    /// - Parameters:
    ///   - read: The age file.
    ///   - write: Receives the plaintext.
    ///   - fileKey: Unwraps the file key from the parsed header (the MAC is checked here).
    ///   - observe: Sees each plaintext chunk.
    /// - Returns: The plaintext size.
    /// - Throws: ``AgeFailure`` for a malformed, truncated, reordered or altered file.
    @discardableResult
    static func decrypt(
        read: @escaping Reader, write: Writer, fileKey unwrap: (AgeHeader) throws -> [UInt8],
        observe: ([UInt8]) -> Void = { _ in }
    ) throws -> Int64 {
        let start = try read(AgeHeader.maximumLength)
        let header = try AgeHeader.parse(start)
        var fileKey = try unwrap(header)
        defer { Primitives.wipe(&fileKey) }
        try header.verify(fileKey: fileKey)
        var payload = BufferedReader(buffer: Array(start[header.length...]), source: read)
        let nonce = try payload.read(16)
        guard nonce.count == 16 else { throw AgeFailure.corrupt("it ends before its payload") }
        var payloadKey = try Primitives.hkdf(fileKey, salt: nonce, info: "payload")
        defer { Primitives.wipe(&payloadKey) }
        var counter: UInt64 = 0
        var total: Int64 = 0
        var current = try payload.read(sealedChunkSize)
        while true {
            try Task.checkCancellation()
            guard current.count >= Primitives.tagSize else {
                throw AgeFailure.corrupt("it is truncated (chunk \(counter) is incomplete)")
            }
            let next = current.count == sealedChunkSize ? try payload.read(sealedChunkSize) : []
            let last = next.isEmpty
            guard let plain = Primitives.open(current, key: payloadKey, nonce: chunkNonce(counter, last: last)) else {
                throw AgeFailure.corrupt(
                    "chunk \(counter) does not authenticate (altered, reordered, dropped, or truncated content)")
            }
            if last, plain.isEmpty, counter > 0 {
                throw AgeFailure.corrupt("its last chunk is empty")
            }
            observe(plain)
            try write(plain)
            total += Int64(plain.count)
            if last { return total }
            counter += 1
            current = next
        }
    }

    /// The plaintext size of a file Stratus wrote (one X25519 stanza), from its stored size;
    /// `nil` when no such file has that size.
    static func plaintextSize(ofSealed size: Int64) -> Int64? {
        let payload = size - x25519Overhead
        guard payload >= Int64(Primitives.tagSize) else { return nil }
        let full = payload / Int64(sealedChunkSize)
        let rest = payload % Int64(sealedChunkSize)
        if rest == 0 { return full * Int64(chunkSize) }
        guard rest > Int64(Primitives.tagSize) || (rest == Int64(Primitives.tagSize) && full == 0) else { return nil }
        return full * Int64(chunkSize) + rest - Int64(Primitives.tagSize)
    }

    /// A reader over a file handle that fills each request unless the file ends.
    static func reader(_ handle: FileHandle) -> Reader {
        { count in
            var out: [UInt8] = []
            while out.count < count {
                guard let data = try handle.read(upToCount: count - out.count), !data.isEmpty else { break }
                out += data
            }
            return out
        }
    }

    /// A reader over bytes in memory.
    static func reader(_ bytes: [UInt8]) -> Reader {
        var offset = 0
        return { count in
            let end = min(bytes.count, offset + count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
    }
}

/// Serves bytes already read, then reads on.
private struct BufferedReader {
    var buffer: [UInt8]
    let source: AgeStream.Reader

    mutating func read(_ count: Int) throws -> [UInt8] {
        guard !buffer.isEmpty else { return try source(count) }
        if buffer.count >= count {
            let out = Array(buffer[..<count])
            buffer.removeFirst(count)
            return out
        }
        let out = buffer
        buffer = []
        return out + (try source(count - out.count))
    }
}
