import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

/// What a client asks before it syncs: `/status.php` (no login), and the OCS capabilities and
/// user (`/ocs/v1.php/cloud/...`, `/ocs/v2.php/cloud/...`, HTTP Basic). Other OCS routes, such
/// as the notifications, end-to-end encryption or user status apps, answer 404 as on a
/// Nextcloud without those apps.
extension MockNextcloudServer {
    /// The Nextcloud version the mock claims: one the desktop client of Debian 12 supports.
    static let version = (major: 28, minor: 0, micro: 4, build: 1)

    static var versionString: String { "\(version.major).\(version.minor).\(version.micro)" }

    func addServerInfoRoutes(to router: Router<BasicRequestContext>) {
        router.get("/status.php") { _, _ in Self.status() }
        for (prefix, version) in [("/ocs/v1.php", NextcloudOCSAnswers.Version.v1), ("/ocs/v2.php", .v2)] {
            router.get("\(prefix)/**") { request, _ in
                self.ocs(request, path: String(request.uri.path.dropFirst(prefix.count)), version: version)
            }
        }
    }

    private static func status() -> Response {
        let body: [String: Any] = [
            "installed": true, "maintenance": false, "needsDbUpgrade": false,
            "version": "\(version.major).\(version.minor).\(version.micro).\(version.build)",
            "versionstring": versionString, "edition": "", "productname": "Nextcloud", "extendedSupport": false,
        ]
        let data =
            (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    private func ocs(_ request: Request, path: String, version: NextcloudOCSAnswers.Version) -> Response {
        guard authorized(request) else {
            var response = NextcloudOCSAnswers.failure(
                httpStatus: 401, v1Code: 997, message: "Current user is not logged in", version: version,
                request: request)
            response.headers[.wwwAuthenticate] = "Basic realm=\"Nextcloud\", charset=\"UTF-8\""
            return response
        }
        switch path {
        case "/cloud/capabilities":
            return NextcloudOCSAnswers.success(
                ["version": versionInfo, "capabilities": capabilities], version: version, request: request)
        case "/cloud/user":
            return NextcloudOCSAnswers.success(userInfo(), version: version, request: request)
        default:
            return NextcloudOCSAnswers.failure(
                httpStatus: 404, v1Code: 998,
                message:
                    "Invalid query, please check the syntax. API specifications are here: http://www.freedesktop.org/wiki/Specifications/open-collaboration-services.",
                version: version, request: request)
        }
    }

    private var versionInfo: [String: Any] {
        [
            "major": Self.version.major, "minor": Self.version.minor, "micro": Self.version.micro,
            "string": Self.versionString, "edition": "", "extendedSupport": false,
        ]
    }

    /// The capabilities of a Nextcloud with its files, dav and versions apps, chunked upload
    /// and the checksums the mock keeps.
    private var capabilities: [String: Any] {
        [
            "core": ["pollinterval": 60, "webdav-root": "remote.php/webdav", "reference-api": true],
            "bruteforce": ["delay": 0, "allow-listed": false],
            "dav": ["chunking": "1.0"],
            "files": [
                "bigfilechunking": true, "blacklisted_files": [".htaccess"], "comments": true, "undelete": true,
                "versioning": true, "version_labeling": false, "version_deletion": false,
            ] as [String: Any],
            "checksums": ["supportedTypes": ["SHA1", "MD5"], "preferredUploadType": "SHA1"] as [String: Any],
        ]
    }

    private func userInfo() -> [String: Any] {
        let used = store.withState { state in state.nodes.values.reduce(Int64(0)) { $0 + ($1.isFolder ? 0 : $1.size) } }
        let free = Int64(1) << 40
        return [
            "enabled": true, "id": user, "storageLocation": "/var/www/html/data/\(user)",
            "lastLogin": Int64(Date().timeIntervalSince1970) * 1000, "backend": "Database", "subadmin": [String](),
            "quota": [
                "free": free, "used": used, "total": free + used, "relative": 0, "quota": -3,
            ] as [String: Any],
            "email": "\(user)@example.invalid", "displayname": user, "display-name": user, "phone": "",
            "address": "", "website": "", "twitter": "", "groups": [String](), "language": "en", "locale": "",
            "backendCapabilities": ["setDisplayName": true, "setPassword": true],
        ]
    }
}
