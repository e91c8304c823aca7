import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// What Drive needs of an upload's content: its MD5, and a `multipart/related` body.
extension UploadContent {
    /// The lowercase hex MD5 of the whole content, read in one streaming pass.
    /// - Throws: ``/Stratus/ServiceError/Code/localFile`` when the file cannot be read or changed
    ///   size.
    func md5() throws -> String {
        guard let md5 = try hexDigests([.md5])[.md5] else {
            throw ServiceError(.localFile, "The content to upload could not be hashed.")
        }
        return md5
    }

    /// A `multipart/related` body: the metadata part, the whole content, the closing delimiter.
    /// A file's bytes are streamed, never held whole; call again for each attempt.
    func multipartBody(metadata: Data, boundary: String) -> HTTPRequestBody {
        let head =
            Data(("--\(boundary)\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n").utf8) + metadata
            + Data("\r\n--\(boundary)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        let tail = Data("\r\n--\(boundary)--\r\n".utf8)
        switch source {
        case .bytes(let data):
            return .bytes(head + data + tail)
        case .file(let url):
            let length = Int64(head.count) + size + Int64(tail.count)
            let expected = size
            let stream = AsyncThrowingStream<Data, any Error> { continuation in
                let reader = Task {
                    do {
                        continuation.yield(head)
                        let handle = try FileHandle(forReadingFrom: url)
                        defer { try? handle.close() }
                        var sent: Int64 = 0
                        while sent < expected {
                            try Task.checkCancellation()
                            let want = Int(min(Int64(Digest.fileReadSize), expected - sent))
                            guard let piece = try handle.read(upToCount: want), !piece.isEmpty else {
                                throw ServiceError(
                                    .localFile, "\(url.path) became shorter while it was being uploaded.")
                            }
                            sent += Int64(piece.count)
                            continuation.yield(piece)
                        }
                        continuation.yield(tail)
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in reader.cancel() }
            }
            return .stream(stream, length: length)
        }
    }
}
