import Foundation
import Hummingbird
import MockSupport
import NIOCore

/// Reads a `multipart/related` upload body, streaming: the first part (JSON metadata, at most
/// `metadataLimit` bytes) is kept in memory, the second (the media) too while it is at most
/// ``BlobStore/inMemoryLimit`` bytes, and past that it goes to a file.
/// Accepts CRLF or bare LF line breaks, as Google does (the Python client sends LF).
struct MultipartRelated {
    /// What the body held.
    struct Parts {
        /// The metadata part's bytes.
        var metadata: Data
        /// The media part's `Content-Type`, if it had one.
        var mediaType: String?
        /// How many media bytes there were.
        var mediaSize: Int64
        /// The media bytes when they were few enough to keep in memory; `nil` when they went to
        /// the file.
        var media: [UInt8]? = []
    }

    /// Why a body was refused.
    enum Problem: Error {
        case malformed(String)
        case tooLarge
    }

    /// The `boundary` parameter of a `multipart/related` content type, or `nil`.
    static func boundary(ofContentType contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map(\.trimmingOptionalWhiteSpace)
        guard let type = pieces.first, type.lowercased() == "multipart/related" else { return nil }
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingOptionalWhiteSpace.lowercased()
            var value = piece[piece.index(after: equals)...].trimmingOptionalWhiteSpace
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if name == "boundary", !value.isEmpty, value.utf8.count <= 70 { return value }
        }
        return nil
    }

    private enum State {
        case preamble
        case afterDelimiter
        case headers
        case content
        case done
    }

    /// Reads a body.
    /// - Parameters:
    ///   - body: The request body.
    ///   - boundary: The boundary.
    ///   - file: Where media bytes beyond ``BlobStore/inMemoryLimit`` go (created then).
    ///   - metadataLimit: The largest metadata part.
    ///   - mediaLimit: The largest media part.
    static func read(_ body: RequestBody, boundary: String, into file: URL, metadataLimit: Int, mediaLimit: Int64)
        async throws -> Parts
    {
        let delimiter = Array("\n--\(boundary)".utf8)
        var handle: FileHandle?
        defer { try? handle?.close() }
        // The body starts with a delimiter without its line break: read it as if one came first.
        var pending: [UInt8] = [0x0A]
        var state = State.preamble
        var partIndex = -1
        var headerBytes = 0
        var parts = Parts(metadata: Data(), mediaType: nil, mediaSize: 0)
        var consumedPreamble = 0

        func deliver(_ bytes: ArraySlice<UInt8>) throws {
            switch partIndex {
            case 0:
                guard parts.metadata.count + bytes.count <= metadataLimit else { throw Problem.tooLarge }
                parts.metadata.append(contentsOf: bytes)
            case 1:
                parts.mediaSize += Int64(bytes.count)
                guard parts.mediaSize <= mediaLimit else { throw Problem.tooLarge }
                if let held = parts.media?.count, held + bytes.count <= BlobStore.inMemoryLimit {
                    parts.media?.append(contentsOf: bytes)
                } else {
                    if handle == nil {
                        guard FileManager.default.createFile(atPath: file.path, contents: Data(parts.media ?? []))
                        else {
                            throw CocoaError(.fileWriteUnknown)
                        }
                        handle = try FileHandle(forWritingTo: file)
                        try handle?.seekToEnd()
                        parts.media = nil
                    }
                    try handle?.write(contentsOf: Data(bytes))
                }
            default:
                throw Problem.malformed("A multipart upload has exactly two parts: metadata, then media.")
            }
        }

        func step() throws {
            while true {
                switch state {
                case .preamble:
                    if let found = search(delimiter, in: pending) {
                        pending.removeFirst(found + delimiter.count)
                        state = .afterDelimiter
                    } else {
                        let keep = min(pending.count, delimiter.count - 1)
                        consumedPreamble += pending.count - keep
                        guard consumedPreamble <= 64 * 1024 else {
                            throw Problem.malformed("No multipart boundary found.")
                        }
                        pending.removeFirst(pending.count - keep)
                        return
                    }
                case .afterDelimiter:
                    guard pending.count >= 2 else { return }
                    if pending[0] == UInt8(ascii: "-"), pending[1] == UInt8(ascii: "-") {
                        state = .done
                        pending.removeAll()
                        return
                    }
                    var index = 0
                    while index < pending.count, pending[index] == 0x20 || pending[index] == 0x09 { index += 1 }
                    if index < pending.count, pending[index] == 0x0D { index += 1 }
                    guard index < pending.count else {
                        guard pending.count < 256 else { throw Problem.malformed("Malformed multipart boundary line.") }
                        return
                    }
                    guard pending[index] == 0x0A else { throw Problem.malformed("Malformed multipart boundary line.") }
                    pending.removeFirst(index + 1)
                    partIndex += 1
                    guard partIndex < 2 else {
                        throw Problem.malformed("A multipart upload has exactly two parts: metadata, then media.")
                    }
                    headerBytes = 0
                    state = .headers
                case .headers:
                    guard let newline = pending.firstIndex(of: 0x0A) else {
                        guard pending.count <= 16 * 1024 else {
                            throw Problem.malformed("Multipart part headers are too long.")
                        }
                        return
                    }
                    var line = pending[..<newline]
                    if line.last == 0x0D { line = line.dropLast() }
                    headerBytes += newline + 1
                    guard headerBytes <= 16 * 1024 else {
                        throw Problem.malformed("Multipart part headers are too long.")
                    }
                    let text = String(decoding: line, as: UTF8.self)
                    pending.removeFirst(newline + 1)
                    if text.isEmpty {
                        state = .content
                        continue
                    }
                    guard let colon = text.firstIndex(of: ":") else {
                        throw Problem.malformed("Malformed multipart part header.")
                    }
                    let name = text[..<colon].trimmingOptionalWhiteSpace.lowercased()
                    let value = text[text.index(after: colon)...].trimmingOptionalWhiteSpace
                    if name == "content-type" {
                        if partIndex == 0 {
                            guard value.lowercased().contains("json") else {
                                throw Problem.malformed("The first part of a multipart upload must be JSON metadata.")
                            }
                        } else {
                            parts.mediaType = value
                        }
                    } else if name == "content-transfer-encoding",
                        !["binary", "8bit", "7bit"].contains(value.lowercased())
                    {
                        throw Problem.malformed("Content-Transfer-Encoding '\(value)' is not supported.")
                    }
                case .content:
                    if let found = search(delimiter, in: pending) {
                        var end = found
                        if end > 0, pending[end - 1] == 0x0D { end -= 1 }
                        try deliver(pending[..<end])
                        pending.removeFirst(found + delimiter.count)
                        state = .afterDelimiter
                    } else {
                        // Hold back what could be the start of a delimiter (and the CR before it).
                        let keep = min(pending.count, delimiter.count)
                        if pending.count > keep {
                            try deliver(pending[..<(pending.count - keep)])
                            pending.removeFirst(pending.count - keep)
                        }
                        return
                    }
                case .done:
                    pending.removeAll()
                    return
                }
            }
        }

        for try await buffer in body {
            pending.append(contentsOf: buffer.readableBytesView)
            try step()
        }
        try step()
        guard state == .done else { throw Problem.malformed("The multipart body ended before its closing boundary.") }
        guard partIndex == 1 else {
            throw Problem.malformed("A multipart upload has exactly two parts: metadata, then media.")
        }
        return parts
    }

    /// The first index of `needle` in `haystack`, or `nil`.
    private static func search(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
