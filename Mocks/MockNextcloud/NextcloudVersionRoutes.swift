import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

/// The versions collection: `/remote.php/dav/versions/USER/versions/FILEID[/TIMESTAMP]`.
extension MockNextcloudServer {
    func versions(_ request: inout Request, parts: [String]) async throws -> Response {
        guard let first = parts.first, let fileID = Int(first) else { throw NextcloudFailure.notFound("No file id") }
        let (path, node) = try store.withState { state -> (String, NextcloudNode) in
            guard let path = state.path(ofFileID: fileID), let node = state.nodes[path] else {
                throw NextcloudFailure.notFound("File not found: \(fileID)")
            }
            return (path, node)
        }
        let base = "/remote.php/dav/versions/\(user)/versions/\(first)/"
        switch (request.method.rawValue, parts.count) {
        case ("PROPFIND", 1):
            let depth = request.headers[HTTPField.Name("Depth")!] ?? "infinity"
            var responses = [
                NextcloudAnswers.response(href: base, found: [("{DAV:}resourcetype", "<d:collection/>")], missing: [])
            ]
            if depth == "1" {
                for version in node.versions.sorted(by: { $0.timestamp > $1.timestamp }) {
                    responses.append(
                        NextcloudAnswers.response(
                            href: base + String(version.timestamp),
                            found: [
                                ("{DAV:}resourcetype", ""),
                                ("{DAV:}getcontentlength", String(version.size)),
                                ("{DAV:}getlastmodified", NextcloudAnswers.httpDate(version.timestamp)),
                                ("{DAV:}getetag", "&quot;\(version.etag)&quot;"),
                                ("{DAV:}getcontenttype", "application/octet-stream"),
                            ], missing: []))
                }
            }
            return NextcloudAnswers.multistatus(responses)
        case ("GET", 2), ("HEAD", 2):
            guard let version = node.versions.first(where: { String($0.timestamp) == parts[1] }) else {
                throw NextcloudFailure.notFound("Version not found")
            }
            return content(
                blob: version.blob, size: version.size, etag: version.etag, modified: version.timestamp,
                request: request)
        case ("MOVE", 2):
            guard let destination = request.headers[HTTPField.Name("Destination")!],
                destination.contains("/remote.php/dav/versions/\(user)/restore")
            else {
                throw NextcloudFailure(
                    status: 403, exception: "Sabre\\DAV\\Exception\\Forbidden",
                    message: "Versions can only be moved to the restore folder")
            }
            let ifHeader = request.headers[HTTPField.Name("If")!]
            try store.withState { state in
                guard var current = state.nodes[path], let blob = current.blob,
                    let version = current.versions.first(where: { String($0.timestamp) == parts[1] })
                else {
                    throw NextcloudFailure.notFound("Version not found")
                }
                guard state.permits(path, ifHeader: ifHeader) else { throw NextcloudFailure.locked(path) }
                current.versions.removeAll { $0.timestamp == current.modified }
                current.versions.append(
                    NextcloudVersion(timestamp: current.modified, blob: blob, size: current.size, etag: current.etag))
                current.blob = version.blob
                current.size = version.size
                current.checksum = nil
                current.modified = max(Int64(Date().timeIntervalSince1970), current.modified + 1)
                state.nodes[path] = current
                state.propagate(from: path)
            }
            return NextcloudAnswers.empty(status: 204)
        default:
            return NextcloudAnswers.error(
                status: 405, exception: "Sabre\\DAV\\Exception\\MethodNotAllowed", message: "Method not allowed")
        }
    }
}
