import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

/// A mock of Nextcloud, written from Nextcloud's public developer documentation and checked
/// against the official desktop client's `nextcloudcmd` (see `Mocks/sdk-checks/run-nextcloudcmd-check.sh`):
///
/// - `/status.php`, and the OCS capabilities and user (`/ocs/v1.php/cloud/...`,
///   `/ocs/v2.php/cloud/...`), which advertise chunked uploads, versions and checksums;
/// - files at `/remote.php/dav/files/USER/...`: PROPFIND (depth 0 and 1; `infinity` is refused,
///   as Nextcloud does by default) with `oc:fileid`, `oc:id`, `oc:permissions`, `oc:size`,
///   `oc:checksums` and the rest of what the client asks for, GET with `Range`, PUT (with
///   `X-OC-Mtime`, `OC-Checksum`, `If-Match` and `If-None-Match`; at most
///   ``largestSinglePut`` bytes), DELETE, MKCOL, MOVE, PROPPATCH of dead properties, LOCK and
///   UNLOCK; `OC-FileId`, `ETag` and `OC-ETag` on writes, and folder ETags that change when
///   anything below changes;
/// - chunked uploads at `/remote.php/dav/uploads/USER/<transfer-id>` (versions 1 and 2):
///   numbered chunks streamed to disk, a listing to resume from, and the final MOVE of `.file`
///   that checks `OC-Total-Length` and the destination's preconditions and makes a new version;
/// - versions at `/remote.php/dav/versions/USER/versions/FILEID`: PROPFIND lists the older
///   contents of a file (named by their modification time), GET reads one, and MOVE of one to
///   `/remote.php/dav/versions/USER/restore/...` makes it current again (the replaced content
///   becomes a version, the restored one stays listed);
/// - HTTP Basic authentication for one user; Sabre-shaped XML errors.
///
/// ```swift
/// let nextcloud = try MockNextcloudServer(storageDirectory: folder, user: "alice", password: "pw")
/// let router = Router()
/// nextcloud.addRoutes(to: router)
/// try await MockServer.withRunning(router) { baseURL in
///     // baseURL/remote.php/dav/files/alice/
/// }
/// ```
///
/// Every route sits behind the request log and fault injection (`/__stratus/...`).
public final class MockNextcloudServer: Sendable {
    /// The user it accepts.
    public let user: String
    private let password: String
    /// Every request the routes answered, secrets redacted.
    public let requestLog: RequestLog
    /// The fault rules (see ``MockSupport/FaultRule``).
    public let faults: FaultInjector
    let blobs: BlobStore
    let store = NextcloudStore()
    /// The largest file accepted.
    let maximumFileSize: Int64 = 5 * 1024 * 1024 * 1024
    /// The largest body one PUT may carry (a file PUT or one chunk), like the body size limit of
    /// the web server or proxy in front of a Nextcloud; `nil` for no limit below the largest file.
    public let largestSinglePut: Int64?
    /// The upload folders of chunked uploads.
    let uploads: NextcloudUploads

    /// Creates a server with an empty files root.
    /// - Parameters:
    ///   - storageDirectory: Where blobs are written; created if needed.
    ///   - user: The user name it accepts (and that names its collections).
    ///   - password: That user's (app) password.
    ///   - requestLog: Where requests are recorded.
    ///   - largestSinglePut: The largest body one PUT may carry (413 `EntityTooLarge` above it),
    ///     or `nil` for none below the largest file; chunked uploads go around it.
    ///   - uploadExpiry: How long an upload folder of a chunked upload lives without being used
    ///     (Nextcloud: 24 hours).
    /// - Throws: An error when the storage folders cannot be created.
    public init(
        storageDirectory: URL, user: String, password: String, requestLog: RequestLog = RequestLog(),
        largestSinglePut: Int64? = nil, uploadExpiry: Duration = .seconds(24 * 3600)
    ) throws {
        self.user = user
        self.largestSinglePut = largestSinglePut
        self.uploads = NextcloudUploads(expiry: uploadExpiry)
        self.password = password
        self.requestLog = requestLog
        self.faults = FaultInjector(
            hooks: FaultInjector.ProviderHooks(
                errorResponse: { status, retryAfter in
                    var response = NextcloudAnswers.error(
                        status: status, exception: "Sabre\\DAV\\Exception\\ServiceUnavailable",
                        message: "Injected fault.")
                    if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
                    return response
                },
                expireTokens: {}
            ))
        self.blobs = try BlobStore(root: storageDirectory)
    }

    /// The legacy path of the user's files, which the capabilities name as `core.webdav-root`.
    static let legacyFilesPrefix = "/remote.php/webdav"

    /// The path of the user's files collection, `/remote.php/dav/files/USER/`.
    public var filesPath: String { "/remote.php/dav/files/\(user)/" }

    static let methods = [
        "GET", "HEAD", "PUT", "DELETE", "PROPFIND", "PROPPATCH", "MKCOL", "MOVE", "LOCK", "UNLOCK", "OPTIONS",
    ]

    /// Mounts the routes on a router (call it on a fresh one: the log and the faults apply to
    /// routes added after them).
    /// - Parameter router: The router.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        router.addMockInfrastructure(
            requestLog: requestLog, faults: faults,
            recordedHeaders: RequestLogMiddleware<BasicRequestContext>.defaultRecordedHeaders.union([
                "if", "depth", "destination", "overwrite", "oc-total-length", "x-oc-mtime", "oc-checksum",
            ]))
        addServerInfoRoutes(to: router)
        for name in Self.methods {
            guard let method = HTTPRequest.Method(name) else { continue }
            for route in ["/remote.php/dav/**", Self.legacyFilesPrefix, Self.legacyFilesPrefix + "/**"] {
                router.on(RouterPath(route), method: method) { request, _ in
                    var request = request
                    return await self.answer(&request)
                }
            }
        }
    }

    private func answer(_ request: inout Request) async -> Response {
        do {
            guard authorized(request) else {
                var response = NextcloudAnswers.error(
                    status: 401, exception: "Sabre\\DAV\\Exception\\NotAuthenticated",
                    message: "No public access to this resource., Username or password was incorrect")
                response.headers[.wwwAuthenticate] = "Basic realm=\"Nextcloud\", charset=\"UTF-8\""
                return response
            }
            let path = request.uri.path.removingPercentEncoding ?? request.uri.path
            let filesPrefix = "/remote.php/dav/files/\(user)"
            let versionsPrefix = "/remote.php/dav/versions/\(user)/versions"
            for prefix in [filesPrefix, Self.legacyFilesPrefix] where path == prefix || path.hasPrefix(prefix + "/") {
                var relative = String(path.dropFirst(prefix.count))
                while relative.hasPrefix("/") { relative.removeFirst() }
                while relative.hasSuffix("/") { relative.removeLast() }
                return try await files(&request, path: relative, collection: prefix + "/")
            }
            let uploadsPrefix = "/remote.php/dav/uploads/\(user)"
            if path == uploadsPrefix || path.hasPrefix(uploadsPrefix + "/") {
                let parts = path.dropFirst(uploadsPrefix.count).split(separator: "/").map(String.init)
                return try await uploads(&request, parts: parts)
            }
            if path.hasPrefix(versionsPrefix + "/") {
                let parts = path.dropFirst(versionsPrefix.count + 1).split(separator: "/").map(String.init)
                return try await versions(&request, parts: parts)
            }
            return NextcloudAnswers.error(
                status: 404, exception: "Sabre\\DAV\\Exception\\NotFound", message: "File not found in root")
        } catch let failure as NextcloudFailure {
            return NextcloudAnswers.error(
                status: failure.status, exception: failure.exception, message: failure.message)
        } catch {
            return NextcloudAnswers.error(status: 500, exception: "Sabre\\DAV\\Exception", message: "Internal error")
        }
    }

    func authorized(_ request: Request) -> Bool {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces))
        else { return false }
        return String(decoding: data, as: UTF8.self) == "\(user):\(password)"
    }
}

/// A refusal, answered as a Sabre error document.
struct NextcloudFailure: Error {
    var status: Int
    var exception: String
    var message: String

    static func notFound(_ message: String) -> NextcloudFailure {
        NextcloudFailure(status: 404, exception: "Sabre\\DAV\\Exception\\NotFound", message: message)
    }
    static func conflict(_ message: String) -> NextcloudFailure {
        NextcloudFailure(status: 409, exception: "Sabre\\DAV\\Exception\\Conflict", message: message)
    }
    static func locked(_ path: String) -> NextcloudFailure {
        NextcloudFailure(status: 423, exception: "Sabre\\DAV\\Exception\\Locked", message: "\"\(path)\" is locked")
    }
    static func badRequest(_ message: String) -> NextcloudFailure {
        NextcloudFailure(status: 400, exception: "Sabre\\DAV\\Exception\\BadRequest", message: message)
    }
    /// A body longer than the server takes in one request: Nextcloud's own exception class.
    static func entityTooLarge(limit: Int64) -> NextcloudFailure {
        NextcloudFailure(
            status: 413, exception: "OCA\\DAV\\Connector\\Sabre\\Exception\\EntityTooLarge",
            message: "The request body is larger than \(limit) bytes")
    }
}
