import Foundation
import Stratus

/// How an upload is cut into the numbered chunks of Nextcloud's chunked upload (v2), and which
/// of them still have to be sent when the upload folder already holds some: the decisions of a
/// chunked upload, apart from its requests.
struct NextcloudChunkPlan: Sendable, Equatable {
    /// One chunk: its number (1 to ``largestChunkNumber``) and the bytes of the content it holds.
    struct Chunk: Sendable, Equatable {
        var number: Int
        var range: Range<Int64>

        /// Its name in the upload folder: the number, zero-padded to five digits, so that the
        /// names sort in the order of the numbers (Nextcloud assembles the chunks in the order of
        /// their names).
        var name: String { NextcloudChunkPlan.name(of: number) }
        /// Its size in bytes.
        var size: Int64 { range.upperBound - range.lowerBound }
    }

    /// The name of the file the chunks will make, which the upload folder lists beside them and
    /// whose MOVE assembles them.
    static let futureFileName = ".file"

    /// The highest chunk number the protocol allows.
    static let largestChunkNumber = 10_000

    /// The size of the whole content.
    let totalSize: Int64
    /// The size of each chunk but the last.
    let chunkSize: Int64
    /// The chunks, in order; one empty chunk for empty content.
    let chunks: [Chunk]

    /// Plans the chunks of content of a size, in chunks of `chunkSize` bytes, or larger ones when
    /// that would take more than ``largestChunkNumber`` chunks.
    /// - Parameters:
    ///   - totalSize: The content's size, 0 or more.
    ///   - chunkSize: The configured chunk size, 1 or more.
    init(totalSize: Int64, chunkSize: Int64) {
        let size = max(totalSize, 0)
        let wanted = max(chunkSize, 1)
        // The smallest size that keeps within the chunk numbers, rounded up.
        let limit = Int64(Self.largestChunkNumber)
        let fitting = size / limit + (size % limit == 0 ? 0 : 1)
        let chunkSize = max(wanted, fitting)
        self.totalSize = size
        self.chunkSize = chunkSize
        var chunks: [Chunk] = []
        var offset: Int64 = 0
        repeat {
            let end = size - offset > chunkSize ? offset + chunkSize : size
            chunks.append(Chunk(number: chunks.count + 1, range: offset..<end))
            offset = end
        } while offset < size
        self.chunks = chunks
    }

    /// The name of a chunk number: five digits, zero-padded.
    static func name(of number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    /// What to do about an upload folder that already holds chunks.
    struct Resumption: Sendable, Equatable {
        /// The chunks to send: those missing, and those whose size is not the planned one (cut
        /// short, or left by another layout).
        var toSend: [Chunk]
        /// Chunk names in the folder (see ``NextcloudChunkPlan/isChunkName(_:)``) that are no
        /// chunk of this plan: deleted, or Nextcloud would assemble them too. Only names a
        /// chunked upload makes are ever here: never ``futureFileName``, and never any other
        /// name a server lists (`.`, `..`, another client's file), which is ignored.
        var toDelete: [String]
        /// The bytes already there, in chunks that are kept.
        var keptBytes: Int64
    }

    /// Decides which chunks to send, given what the upload folder holds.
    /// - Parameter present: The size of each file in the upload folder, by name.
    /// - Returns: The chunks to send, the names to delete, and the bytes kept.
    func resumption(present: [String: Int64]) -> Resumption {
        var toSend: [Chunk] = []
        var kept: Int64 = 0
        var planned: Set<String> = []
        for chunk in chunks {
            planned.insert(chunk.name)
            if present[chunk.name] == chunk.size {
                kept += chunk.size
            } else {
                toSend.append(chunk)
            }
        }
        // Only names of chunks: `.file` is the file the chunks will make, which Nextcloud lists
        // beside them (deleting it deletes the whole upload folder), and a name a server made
        // up, such as `..`, would make the DELETE address something outside the folder. A
        // foreign file left in the folder makes the assembly's size differ from
        // `OC-Total-Length`, which Nextcloud refuses, and that upload's folder is then deleted.
        let toDelete = present.keys.filter { Self.isChunkName($0) && !planned.contains($0) }.sorted()
        return Resumption(toSend: toSend, toDelete: toDelete, keptBytes: kept)
    }

    /// Whether a name is one a chunked upload gives a chunk: five ASCII digits naming a number
    /// from 1 to ``largestChunkNumber`` (see ``name(of:)``).
    static func isChunkName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 5, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(name)
        else { return false }
        return (1...largestChunkNumber).contains(number)
    }

    /// Whether an upload of a size goes through chunked upload.
    /// - Parameters:
    ///   - size: The content's size.
    ///   - configuration: The remote's configuration.
    static func isChunked(size: Int64, configuration: WebDAVConfiguration) -> Bool {
        configuration.usesChunkedUpload && size > configuration.chunkedUploadThreshold
    }
}
