import Foundation
import HTTPTypes
import Hummingbird
import MockSupport
import StratusAdapterKit

/// The files collection: `/remote.php/dav/files/USER/<path>`, and the same files under the
/// legacy `/remote.php/webdav/<path>` (the capabilities' `core.webdav-root`).
extension MockNextcloudServer {
    /// - Parameter collection: The path of the collection the request named, ending in `/`:
    ///   the hrefs of the answers are under it.
    func files(_ request: inout Request, path: String, collection: String) async throws -> Response {
        switch request.method.rawValue {
        case "OPTIONS":
            return NextcloudAnswers.empty(
                status: 200,
                headers: [
                    HTTPField.Name("DAV")!: "1, 3, extended-mkcol, 2", .allow: Self.methods.joined(separator: ", "),
                ])
        case "PROPFIND": return try await propfind(&request, path: path, collection: collection)
        case "GET", "HEAD": return try get(request, path: path)
        case "PUT": return try await put(&request, path: path)
        case "DELETE": return try delete(request, path: path)
        case "MKCOL": return try mkcol(request, path: path)
        case "PROPPATCH": return try await proppatch(&request, path: path, collection: collection)
        case "LOCK": return try lock(request, path: path)
        case "UNLOCK": return try unlock(request, path: path)
        case "MOVE": return try move(request, path: path)
        default:
            return NextcloudAnswers.error(
                status: 405, exception: "Sabre\\DAV\\Exception\\MethodNotAllowed", message: "Method not allowed")
        }
    }

    /// The properties a PROPFIND body asks for; `nil` for allprop (or no body).
    func requestedProperties(_ request: inout Request) async throws -> [String]? {
        let body = try await request.readBody(limit: 256 * 1024)
        guard body.readableBytes > 0 else { return nil }
        guard let document = try? XMLTree.parse(Data(buffer: body)) else {
            throw NextcloudFailure.badRequest("The PROPFIND body is not XML.")
        }
        guard let prop = document.child("prop", namespace: "DAV:") else { return nil }
        return prop.children.map(\.expandedName)
    }

    private func propfind(_ request: inout Request, path: String, collection: String) async throws -> Response {
        let depth = request.headers[HTTPField.Name("Depth")!] ?? "infinity"
        guard depth == "0" || depth == "1" else {
            throw NextcloudFailure(
                status: 403, exception: "Sabre\\DAV\\Exception\\Forbidden",
                message: "PROPFIND requests with a Depth of Infinity are not allowed")
        }
        let wanted = try await requestedProperties(&request)
        let responses: [String] = try store.withState { state in
            guard state.nodes[path] != nil else {
                throw NextcloudFailure.notFound("File with name \(path) could not be located")
            }
            var paths = [path]
            if depth == "1", state.nodes[path]?.isFolder == true { paths += state.children(of: path) }
            return paths.compactMap { item in
                guard let node = state.nodes[item] else { return nil }
                return describe(node, at: item, wanted: wanted, state: state, collection: collection)
            }
        }
        return NextcloudAnswers.multistatus(responses)
    }

    /// A `d:response` for a node: the properties asked for (every live and dead one for
    /// allprop), those the mock does not have in a 404 propstat, as Nextcloud's Sabre plugins
    /// answer them.
    private func describe(
        _ node: NextcloudNode, at path: String, wanted: [String]?, state: NextcloudStore.State, collection: String
    ) -> String {
        let ownCloud = "{http://owncloud.org/ns}"
        let nextcloud = "{http://nextcloud.org/ns}"
        var live: [String: String] = [
            "{DAV:}resourcetype": node.isFolder ? "<d:collection/>" : "",
            "{DAV:}getetag": "&quot;\(node.etag)&quot;",
            "{DAV:}getlastmodified": NextcloudAnswers.httpDate(node.modified),
            ownCloud + "fileid": String(node.fileID),
            ownCloud + "id": NextcloudStore.ocID(node.fileID),
            ownCloud + "permissions": node.isFolder ? "RGDNVCK" : "RGDNVW",
            ownCloud + "share-types": "",
            ownCloud + "owner-id": XMLTree.escaped(user),
            ownCloud + "owner-display-name": XMLTree.escaped(user),
            nextcloud + "has-preview": "false",
            nextcloud + "creation_time": "0",
            nextcloud + "upload_time": "0",
        ]
        if !node.isFolder {
            live["{DAV:}getcontentlength"] = String(node.size)
            live["{DAV:}getcontenttype"] = "application/octet-stream"
            live[ownCloud + "size"] = String(node.size)
            if let checksum = node.checksum {
                live[ownCloud + "checksums"] = "<oc:checksum>\(XMLTree.escaped(checksum))</oc:checksum>"
            }
        } else {
            let size = state.size(of: path)
            live[ownCloud + "size"] = String(size)
            live["{DAV:}quota-used-bytes"] = String(size)
            live["{DAV:}quota-available-bytes"] = "-3"
            live[nextcloud + "is-encrypted"] = "0"
            live[nextcloud + "contained-folder-count"] = String(
                state.children(of: path).filter { state.nodes[$0]?.isFolder == true }.count)
            live[nextcloud + "contained-file-count"] = String(
                state.children(of: path).filter { state.nodes[$0]?.isFolder == false }.count)
            if path.isEmpty { live[ownCloud + "data-fingerprint"] = "" }
        }
        var found: [(String, String)] = []
        var missing: [String] = []
        let names = wanted ?? (Array(live.keys).sorted() + node.deadProperties.keys.sorted())
        for name in names {
            if let value = live[name] {
                found.append((name, value))
            } else if let value = node.deadProperties[name] {
                found.append((name, XMLTree.escaped(value)))
            } else {
                missing.append(name)
            }
        }
        return NextcloudAnswers.response(
            href: NextcloudAnswers.href(collection, path, isFolder: node.isFolder), found: found, missing: missing)
    }

    private func get(_ request: Request, path: String) throws -> Response {
        let node = try store.withState { state in
            guard let node = state.nodes[path] else {
                throw NextcloudFailure.notFound("File with name \(path) could not be located")
            }
            return node
        }
        guard !node.isFolder, let blob = node.blob else {
            throw NextcloudFailure(
                status: 501, exception: "Sabre\\DAV\\Exception\\NotImplemented",
                message: "GET is only implemented on File objects")
        }
        var response = content(
            blob: blob, size: node.size, etag: node.etag, modified: node.modified, request: request)
        response.headers[HTTPField.Name("OC-FileId")!] = NextcloudStore.ocID(node.fileID)
        if let checksum = node.checksum { response.headers[HTTPField.Name("OC-Checksum")!] = checksum }
        return response
    }

    /// The bytes of a blob, whole or a `Range` of them.
    func content(blob: String, size: Int64, etag: String, modified: Int64, request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: "application/octet-stream", .eTag: "\"\(etag)\"", .acceptRanges: "bytes",
            .lastModified: NextcloudAnswers.httpDate(modified),
        ]
        var range: Range<Int64> = 0..<size
        var status = 200
        if let header = request.headers[.range] {
            guard let requested = ByteRangeHeader.range(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return NextcloudAnswers.empty(status: 416, headers: headers)
            }
            range = requested
            status = 206
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
        }
        if request.method == .head || range.isEmpty {
            headers[.contentLength] = String(range.count)
            return NextcloudAnswers.empty(status: status, headers: headers)
        }
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: blobs.responseBody(ofBlob: blob, range: range))
    }

    private func put(_ request: inout Request, path: String) async throws -> Response {
        guard !path.isEmpty else { throw NextcloudFailure.conflict("The root is a folder") }
        let ifHeader = request.headers[HTTPField.Name("If")!]
        let preconditions = NextcloudPreconditions(request)
        try store.withState { state in
            guard let parent = NextcloudStore.State.parent(of: path), state.nodes[parent]?.isFolder == true else {
                throw NextcloudFailure.conflict("Files cannot be created in non-existent collections")
            }
            if state.nodes[path]?.isFolder == true { throw NextcloudFailure.conflict("A folder is at \(path)") }
            guard state.permits(path, ifHeader: ifHeader) else { throw NextcloudFailure.locked(path) }
            try preconditions.check(currentETag: state.nodes[path]?.etag)
        }
        let limit = singlePutLimit
        if let announced = request.headers[.contentLength].flatMap({ Int64($0) }), announced > limit {
            throw NextcloudFailure.entityTooLarge(limit: limit)
        }
        guard let received = try await blobs.ingest(request.body, limit: limit) else {
            throw NextcloudFailure.entityTooLarge(limit: limit)
        }
        let requestedMtime = Self.requestedMtime(request)
        let checksum = request.headers[HTTPField.Name("OC-Checksum")!]
        let (node, created) = try store.withState { state -> (NextcloudNode, Bool) in
            guard state.permits(path, ifHeader: ifHeader) else { throw NextcloudFailure.locked(path) }
            try preconditions.check(currentETag: state.nodes[path]?.etag)
            return try state.write(received, to: path, modified: requestedMtime, checksum: checksum)
        }
        return Self.written(node, created: created, mtimeAccepted: requestedMtime != nil)
    }

    /// The largest body a single PUT may carry: the configured limit, at most the largest file.
    var singlePutLimit: Int64 { min(largestSinglePut ?? maximumFileSize, maximumFileSize) }

    /// The modification time an `X-OC-Mtime` header asks for, in whole seconds.
    static func requestedMtime(_ request: Request) -> Int64? {
        guard let text = request.headers[HTTPField.Name("X-OC-Mtime")!], let value = Double(text),
            value.isFinite, value > 0, value < 1e12
        else { return nil }
        return Int64(value)
    }

    /// The answer to a write of a file's content: its ids and ETag, as Nextcloud sends them.
    static func written(_ node: NextcloudNode, created: Bool, mtimeAccepted: Bool) -> Response {
        var headers: HTTPFields = [.eTag: "\"\(node.etag)\""]
        headers[HTTPField.Name("OC-ETag")!] = "\"\(node.etag)\""
        headers[HTTPField.Name("OC-FileId")!] = NextcloudStore.ocID(node.fileID)
        if mtimeAccepted { headers[HTTPField.Name("X-OC-MTime")!] = "accepted" }
        return NextcloudAnswers.empty(status: created ? 201 : 204, headers: headers)
    }

    private func delete(_ request: Request, path: String) throws -> Response {
        guard !path.isEmpty else {
            throw NextcloudFailure(
                status: 403, exception: "Sabre\\DAV\\Exception\\Forbidden", message: "The root cannot be deleted")
        }
        let ifHeader = request.headers[HTTPField.Name("If")!]
        try store.withState { state in
            guard state.nodes[path] != nil else {
                throw NextcloudFailure.notFound("File with name \(path) could not be located")
            }
            guard state.permits(path, ifHeader: ifHeader) else { throw NextcloudFailure.locked(path) }
            let prefix = path + "/"
            for key in state.nodes.keys where key == path || key.hasPrefix(prefix) { state.nodes[key] = nil }
            state.locks[path] = nil
            if let parent = NextcloudStore.State.parent(of: path) { state.propagate(from: parent) }
        }
        return NextcloudAnswers.empty(status: 204)
    }

    private func mkcol(_ request: Request, path: String) throws -> Response {
        try store.withState { state in
            if state.nodes[path] != nil {
                throw NextcloudFailure(
                    status: 405, exception: "Sabre\\DAV\\Exception\\MethodNotAllowed",
                    message: "The resource you tried to create already exists")
            }
            guard let parent = NextcloudStore.State.parent(of: path), state.nodes[parent]?.isFolder == true else {
                throw NextcloudFailure.conflict("Parent node does not exist")
            }
            state.nodes[path] = NextcloudNode(
                isFolder: true, fileID: state.newFileID(), modified: Int64(Date().timeIntervalSince1970),
                etag: NextcloudStore.newETag())
            state.propagate(from: path)
        }
        return NextcloudAnswers.empty(status: 201)
    }

    private func proppatch(_ request: inout Request, path: String, collection: String) async throws -> Response {
        let body = try await request.readBody(limit: 1024 * 1024)
        guard let document = try? XMLTree.parse(Data(buffer: body)), document.expandedName == "{DAV:}propertyupdate"
        else {
            throw NextcloudFailure.badRequest("The PROPPATCH body is not a propertyupdate document.")
        }
        let ifHeader = request.headers[HTTPField.Name("If")!]
        let response: String = try store.withState { state in
            guard var node = state.nodes[path] else {
                throw NextcloudFailure.notFound("File with name \(path) could not be located")
            }
            guard state.permits(path, ifHeader: ifHeader) else { throw NextcloudFailure.locked(path) }
            var results: [(String, Int)] = []
            for instruction in document.children {
                let isSet = instruction.expandedName == "{DAV:}set"
                guard isSet || instruction.expandedName == "{DAV:}remove" else { continue }
                for property in instruction.children("prop", namespace: "DAV:").flatMap(\.children) {
                    let name = property.expandedName
                    if property.namespace == "DAV:" || property.namespace == "http://owncloud.org/ns" {
                        results.append((name, 403))
                        continue
                    }
                    node.deadProperties[name] = isSet ? property.text : nil
                    results.append((name, 200))
                }
            }
            // RFC 4918: all or nothing.
            if results.allSatisfy({ $0.1 == 200 }) { state.nodes[path] = node }
            let failed = results.contains { $0.1 != 200 }
            var text =
                "<d:response><d:href>\(XMLTree.escaped(NextcloudAnswers.href(collection, path, isFolder: node.isFolder)))</d:href>"
            for (name, status) in results {
                let shown = failed && status == 200 ? 424 : status
                text +=
                    "<d:propstat><d:prop>\(NextcloudAnswers.tag(name, value: nil))</d:prop><d:status>HTTP/1.1 \(shown) \(shown == 200 ? "OK" : "Failed")</d:status></d:propstat>"
            }
            return text + "</d:response>"
        }
        return NextcloudAnswers.multistatus([response])
    }

    private func lock(_ request: Request, path: String) throws -> Response {
        let timeout =
            request.headers[HTTPField.Name("Timeout")!].flatMap { value -> Double? in
                guard let range = value.range(of: "Second-") else { return nil }
                return Double(value[range.upperBound...].prefix { $0.isNumber })
            } ?? 1800
        if let condition = request.headers[HTTPField.Name("If")!] {
            // RFC 4918 9.10.2: a LOCK with an If header naming a lock's token (and no body)
            // refreshes that lock; one that names no live lock of this resource is refused
            // with 412 and grants nothing.
            let refreshed = try store.withState { state -> String in
                guard let lock = state.locks[path], lock.expires > Date(), condition.contains(lock.token) else {
                    throw NextcloudFailure(
                        status: 412, exception: "Sabre\\DAV\\Exception\\PreconditionFailed",
                        message: "An If-header was specified, but none of the specified conditions were met")
                }
                state.locks[path] = NextcloudLock(
                    token: lock.token, expires: Date().addingTimeInterval(min(timeout, 3600)))
                return lock.token
            }
            return Self.lockAnswer(token: refreshed, timeout: timeout, status: 200)
        }
        let token = "opaquelocktoken:" + UUID().uuidString.lowercased()
        let created = try store.withState { state -> Bool in
            if let lock = state.locks[path], lock.expires > Date() { throw NextcloudFailure.locked(path) }
            var created = false
            if state.nodes[path] == nil {
                // RFC 4918: a LOCK of an unmapped URL makes an empty resource.
                guard let parent = NextcloudStore.State.parent(of: path), state.nodes[parent]?.isFolder == true else {
                    throw NextcloudFailure.conflict("Parent node does not exist")
                }
                let empty = try blobs.commit(
                    try emptyFile(),
                    info: BlobInfo(
                        sha256: Self.emptySHA256, contentHash: "", md5: "d41d8cd98f00b204e9800998ecf8427e", size: 0))
                state.nodes[path] = NextcloudNode(
                    isFolder: false, fileID: state.newFileID(), blob: empty.sha256, size: 0,
                    modified: Int64(Date().timeIntervalSince1970), etag: NextcloudStore.newETag())
                state.propagate(from: path)
                created = true
            }
            state.locks[path] = NextcloudLock(token: token, expires: Date().addingTimeInterval(min(timeout, 3600)))
            return created
        }
        return Self.lockAnswer(token: token, timeout: timeout, status: created ? 201 : 200)
    }

    /// A granted (or refreshed) lock's answer: its lockdiscovery and its `Lock-Token`.
    private static func lockAnswer(token: String, timeout: Double, status: Int) -> Response {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:prop xmlns:d="DAV:"><d:lockdiscovery><d:activelock><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype>\
            <d:depth>0</d:depth><d:timeout>Second-\(Int(timeout))</d:timeout><d:locktoken><d:href>\(token)</d:href></d:locktoken></d:activelock></d:lockdiscovery></d:prop>
            """
        var response = NextcloudAnswers.xml(status: status, body)
        response.headers[HTTPField.Name("Lock-Token")!] = "<\(token)>"
        return response
    }

    static let emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    private func emptyFile() throws -> URL {
        let file = try blobs.makeScratchFile()
        return file
    }

    private func unlock(_ request: Request, path: String) throws -> Response {
        let header = request.headers[HTTPField.Name("Lock-Token")!] ?? ""
        try store.withState { state in
            guard let lock = state.locks[path], header.contains(lock.token) else {
                throw NextcloudFailure(
                    status: 409, exception: "Sabre\\DAV\\Exception\\LockTokenMatchesRequestUri",
                    message: "The lock token does not match")
            }
            state.locks[path] = nil
        }
        return NextcloudAnswers.empty(status: 204)
    }

    private func move(_ request: Request, path: String) throws -> Response {
        let target = try filesTarget(of: request)
        guard !path.isEmpty, !target.isEmpty, target != path, !target.hasPrefix(path + "/") else {
            throw NextcloudFailure(
                status: 403, exception: "Sabre\\DAV\\Exception\\Forbidden",
                message: "Source and destination are the same, or the destination is inside the source")
        }
        let overwrite = request.headers[HTTPField.Name("Overwrite")!] != "F"
        let (moved, existed) = try store.withState { state -> (NextcloudNode, Bool) in
            guard let moved = state.nodes[path] else {
                throw NextcloudFailure.notFound("File with name \(path) could not be located")
            }
            guard let parent = NextcloudStore.State.parent(of: target), state.nodes[parent]?.isFolder == true else {
                throw NextcloudFailure.conflict("The destination node is not found")
            }
            let existed = state.nodes[target] != nil
            if existed, !overwrite {
                throw NextcloudFailure(
                    status: 412, exception: "Sabre\\DAV\\Exception\\PreconditionFailed",
                    message: "The destination node already exists")
            }
            let prefix = path + "/"
            for key in state.nodes.keys where key == target || key.hasPrefix(target + "/") { state.nodes[key] = nil }
            for key in state.nodes.keys.sorted() where key == path || key.hasPrefix(prefix) {
                state.nodes[target + key.dropFirst(path.count)] = state.nodes[key]
                state.nodes[key] = nil
            }
            // The moved node keeps its ETag (a client that renamed it has nothing to fetch); the
            // folders above both places change, as Nextcloud's propagator does.
            if let parent = NextcloudStore.State.parent(of: path) { state.propagate(from: parent) }
            if let parent = NextcloudStore.State.parent(of: target) { state.propagate(from: parent) }
            return (moved, existed)
        }
        var headers: HTTPFields = [.eTag: "\"\(moved.etag)\""]
        headers[HTTPField.Name("OC-ETag")!] = "\"\(moved.etag)\""
        headers[HTTPField.Name("OC-FileId")!] = NextcloudStore.ocID(moved.fileID)
        return NextcloudAnswers.empty(status: existed ? 204 : 201, headers: headers)
    }
}
