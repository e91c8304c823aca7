import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// Reads the whole body into memory, refusing more than `limit` bytes.
    ///
    /// A `Content-Length` above the limit is refused before any byte is read; a body without
    /// one is read only up to the limit. The bytes read are kept on the request, so a later
    /// call returns them again.
    /// - Parameter limit: The most bytes accepted.
    /// - Returns: The body.
    /// - Throws: `HTTPError(.contentTooLarge)` (413) when the body is longer than `limit`;
    ///   `HTTPError(.badRequest)` (400) when `Content-Length` is not a number.
    public mutating func readBody(limit: Int) async throws -> ByteBuffer {
        if let announced = headers[.contentLength] {
            guard let length = Int(announced), length >= 0 else {
                throw HTTPError(.badRequest, message: "Content-Length is not a number.")
            }
            guard length <= limit else {
                throw HTTPError(.contentTooLarge, message: "The body is longer than \(limit) bytes.")
            }
        }
        do {
            return try await collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "The body is longer than \(limit) bytes.")
        }
    }

    /// Reads an `application/x-www-form-urlencoded` body, refusing more than `limit` bytes.
    ///
    /// The `Content-Type` is not checked here, since each provider answers a wrong one in its
    /// own way.
    /// - Parameter limit: The most bytes accepted.
    /// - Returns: The fields, decoded.
    /// - Throws: `HTTPError(.contentTooLarge)` beyond the limit; `HTTPError(.badRequest)` when
    ///   the body is not valid form encoding.
    public mutating func readForm(limit: Int = 64 * 1024) async throws -> FormFields {
        let body = try await readBody(limit: limit)
        do {
            return try FormFields(parsing: body)
        } catch {
            throw HTTPError(.badRequest, message: "The form body is malformed: \(error)")
        }
    }

    /// The media type of the body, lowercased and without parameters
    /// (`application/json; charset=utf-8` gives `application/json`), or `nil`.
    public var mediaType: String? {
        headers[.contentType]?
            .split(separator: ";", maxSplits: 1).first?
            .trimmingCharacters(in: .whitespaces).lowercased()
    }
}
