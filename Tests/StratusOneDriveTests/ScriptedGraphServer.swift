import Foundation
import Hummingbird
import MockSupport
import Stratus
import StratusOneDrive
import Synchronization
import Testing

/// A Graph server that answers from a script, for servers that misbehave in ways Graph and the
/// Graph mock never do (a page that links back to itself, an upload session that never moves).
///
/// Every request goes to `answer` with the request count so far; past `fuse` requests the server
/// answers 400 to everything, so an adapter that would loop forever fails its test quickly
/// instead of hanging it.
struct ScriptedGraphServer: Sendable {
    /// One request, as the script sees it.
    struct Request: Sendable {
        var method: String
        /// The path, percent-decoded, such as `/v1.0/me/drive/special/approot/children`.
        var path: String
        /// The path as sent (percent-encoded).
        var rawPath: String
        /// The query as sent (percent-encoded), without `?`.
        var query: String
        /// `http://host:port`, for links back to this server.
        var base: String
        var headers: HTTPFields

        /// The URL of this request as a link (what a self-referencing `@odata.nextLink` holds).
        var selfLink: String {
            query.isEmpty ? base + rawPath : base + rawPath + "?" + query
        }

        /// The first byte of an upload fragment, from its `Content-Range`.
        var rangeStart: Int64? {
            guard let value = headers[.contentRange] else { return nil }
            let bytes = value.dropFirst("bytes ".count)
            return bytes.split(separator: "-").first.flatMap { Int64($0) }
        }
    }

    /// Counts requests by method.
    final class Tally: Sendable {
        private let counts = Mutex<[String: Int]>([:])

        /// Counts one request; returns how many there were in all, this one included.
        func count(_ method: String) -> Int {
            counts.withLock { counts in
                counts[method, default: 0] += 1
                return counts.values.reduce(0, +)
            }
        }

        /// How many requests of a method arrived (all methods for `nil`).
        func requests(_ method: String? = nil) -> Int {
            counts.withLock { counts in method.map { counts[$0, default: 0] } ?? counts.values.reduce(0, +) }
        }
    }

    /// The requests the server answered.
    let tally = Tally()
    /// Past this many requests, every answer is a 400.
    var fuse = 300
    let answer: @Sendable (Request) -> Response

    /// Runs the server for the length of `body`, which gets Graph's versioned base URL on it.
    func run<Result: Sendable>(_ body: @Sendable (URL) async throws -> Result) async throws -> Result {
        let router = Router()
        let (answer, tally, fuse) = (self.answer, self.tally, self.fuse)
        for method in [HTTPRequest.Method.get, .put, .post, .patch, .delete] {
            router.on("/**", method: method) { request, _ in
                _ = try await request.body.collect(upTo: 64 * 1_048_576)
                let total = tally.count(method.rawValue)
                guard total <= fuse else {
                    return Response.json(
                        text: #"{"error":{"code":"invalidRequest","message":"fuse"}}"#, status: .badRequest)
                }
                let path = request.uri.path.removingPercentEncoding ?? request.uri.path
                let host = request.head.authority ?? "127.0.0.1"
                return answer(
                    Request(
                        method: method.rawValue, path: path, rawPath: request.uri.path, query: request.uri.query ?? "",
                        base: "http://\(host)",
                        headers: request.headers))
            }
        }
        return try await MockServer.withRunning(router) { baseURL in
            try await body(baseURL.appendingPathComponent("v1.0"))
        }
    }

    /// A JSON answer.
    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response.json(text: String(decoding: data, as: UTF8.self), status: status)
    }

    /// A Graph 404.
    static var notFound: Response {
        Response.json(text: #"{"error":{"code":"itemNotFound","message":"not found"}}"#, status: .notFound)
    }

    /// The app folder, as Graph describes it.
    static var rootFolder: [String: Any] {
        ["id": "ROOT", "name": "approot", "folder": ["childCount": 1]]
    }

    /// A five-byte file in the app folder.
    static var file: [String: Any] {
        [
            "id": "F1", "name": "a.txt", "size": 5, "cTag": "c1", "eTag": "e1",
            "lastModifiedDateTime": "2026-01-01T00:00:00Z", "parentReference": ["id": "ROOT"],
            "file": ["hashes": ["quickXorHash": "AAAAAAAAAAAAAAAAAAAAAAAAAAA="]],
        ]
    }

    /// A service on the server, repeating a failed request at most 3 times.
    static func service(_ apiURL: URL, maximumPages: Int? = nil) throws -> OneDriveService {
        var configuration = try OneDriveConfiguration(
            apiURL: apiURL, simpleUploadLimit: 64 * 1024, fragmentSize: OneDriveConfiguration.fragmentUnit,
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(10)))
        if let maximumPages { configuration.maximumPages = maximumPages }
        return try OneDriveService(configuration: configuration, credentials: .accessToken("token-not-a-secret"))
    }

    /// Runs a call against a deadline far beyond what it needs: an adapter that loops is ended by
    /// the server's fuse, and failing that by the deadline, so a test fails instead of hanging.
    static func racing<Value: Sendable>(
        _ call: @escaping @Sendable () async throws -> Value, deadline: Duration = .seconds(60)
    ) async -> Result<Value, any Error> {
        await withTaskGroup(of: Result<Value, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await call()) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
                return .failure(ServiceError(.timeout, "The call did not end within \(deadline)."))
            }
            return .failure(ServiceError(.internalError, "No outcome."))
        }
    }
}
