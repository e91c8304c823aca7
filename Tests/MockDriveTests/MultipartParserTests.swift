import Foundation
import Hummingbird
import MockSupport
import NIOCore
import Testing

@testable import MockDrive

@Suite("multipart/related reader")
struct MultipartParserTests {
    /// A request body delivered in pieces of `size` bytes, so boundaries straddle pieces.
    static func body(_ data: Data, pieces size: Int) -> RequestBody {
        let buffers = stride(from: 0, to: data.count, by: size).map { start in
            ByteBuffer(bytes: data.subdata(in: start..<min(start + size, data.count)))
        }
        return RequestBody(asyncSequence: buffers.async)
    }

    @Test("boundaries split across every piece size still give the exact parts", arguments: [1, 2, 3, 7, 64, 4096])
    func splitBoundaries(pieceSize: Int) async throws {
        // A media part that stays in memory, and one past BlobStore.inMemoryLimit that goes to
        // the file (with small pieces only for the first: a byte at a time is slow).
        for extra in pieceSize < 64 ? [3000] : [3000, 70_000] {
            let media =
                Data("line one\r\n--not-the-boundary\r\n--b0undary\n".utf8)
                + Data((0..<extra).map { UInt8($0 % 251) })
            let (body, contentType) = try DriveHarness.multipart(
                metadata: ["name": "x"], content: media, mimeType: "application/x-test", boundary: "b0undary-1")
            let boundary = try #require(MultipartRelated.boundary(ofContentType: contentType))
            #expect(boundary == "b0undary-1")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            let parts = try await MultipartRelated.read(
                Self.body(body, pieces: pieceSize), boundary: boundary, into: file, metadataLimit: 1024,
                mediaLimit: 1 << 20)
            #expect(try JSONSerialization.jsonObject(with: parts.metadata) as? [String: String] == ["name": "x"])
            #expect(parts.mediaType == "application/x-test")
            #expect(parts.mediaSize == Int64(media.count))
            if media.count <= BlobStore.inMemoryLimit {
                #expect(parts.media.map { Data($0) } == media)
                #expect(!FileManager.default.fileExists(atPath: file.path))
            } else {
                #expect(parts.media == nil)
                #expect(try Data(contentsOf: file) == media)
            }
        }
    }

    @Test("limits: a metadata part or a media part over its limit is refused")
    func limits() async throws {
        let (body, contentType) = try DriveHarness.multipart(
            metadata: ["name": String(repeating: "n", count: 300)], content: Data(count: 100), mimeType: "text/plain")
        let boundary = try #require(MultipartRelated.boundary(ofContentType: contentType))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        await #expect(throws: MultipartRelated.Problem.self) {
            _ = try await MultipartRelated.read(
                Self.body(body, pieces: 50), boundary: boundary, into: file, metadataLimit: 100, mediaLimit: 1000)
        }
        await #expect(throws: MultipartRelated.Problem.self) {
            _ = try await MultipartRelated.read(
                Self.body(body, pieces: 50), boundary: boundary, into: file, metadataLimit: 1000, mediaLimit: 99)
        }
        #expect(MultipartRelated.boundary(ofContentType: "multipart/mixed; boundary=x") == nil)
        #expect(MultipartRelated.boundary(ofContentType: "multipart/related; charset=utf-8") == nil)
        #expect(MultipartRelated.boundary(ofContentType: "Multipart/Related; Boundary=\"a b\"") == "a b")
    }
}
