import Foundation
import HTTPTypes
import Hummingbird
import MockSupport

/// Chunked uploads: `/remote.php/dav/uploads/USER/<transfer-id>[/<chunk>]`, from Nextcloud's
/// developer manual ("Chunked file upload").
///
/// - `MKCOL <id>` makes an upload folder; with a `Destination` header (the target's URL under
///   the files collection) it is a version 2 upload, whose chunks are numbered 1…10000 and
///   whose requests all carry `Destination`; without one, a version 1 ("NG") upload whose
///   chunks may have any name.
/// - `PUT <id>/<chunk>` stores a chunk (streamed to disk; each body is held to the single-PUT
///   limit, the file as a whole is not).
/// - `PROPFIND <id>` (depth 1) lists the chunks present with their sizes, and `.file`, so a
///   client can resume.
/// - `MOVE <id>/.file` assembles the chunks in the natural order of their names into the
///   `Destination` (a new version of a file that exists), checking `OC-Total-Length` against
///   their sum and the destination's `If-Match`, `If-None-Match` and `If`; the folder is gone.
/// - `DELETE <id>` aborts. Folders untouched for the expiry age (24 hours) go by themselves.
///
/// Nextcloud requires chunks of at least 5 MB (but the last) only on object-store primary
/// storage, where version 2 writes straight to S3; on ordinary storage it takes any size, and
/// so does the mock.
extension MockNextcloudServer {
    func uploads(_ request: inout Request, parts: [String]) async throws -> Response {
        switch (request.method.rawValue, parts.count) {
        case ("PROPFIND", 0): return try listUploadFolders(request)
        case ("PROPFIND", 1): return try await listChunks(&request, id: parts[0])
        case ("MKCOL", 1): return try makeUploadFolder(request, id: parts[0])
        case ("DELETE", 1): return try abortUpload(id: parts[0])
        case ("PUT", 2): return try await putChunk(&request, id: parts[0], name: parts[1])
        case ("DELETE", 2): return try deleteChunk(id: parts[0], name: parts[1])
        case ("MOVE", 2) where parts[1] == ".file": return try await assemble(request, id: parts[0])
        case ("GET", 2), ("HEAD", 2):
            throw NextcloudFailure(
                status: 403, exception: "Sabre\\DAV\\Exception\\Forbidden",
                message: "Chunks cannot be downloaded from the upload folder")
        default:
            return NextcloudAnswers.error(
                status: 405, exception: "Sabre\\DAV\\Exception\\MethodNotAllowed", message: "Method not allowed")
        }
    }

    /// The path of the user's upload folders, `/remote.php/dav/uploads/USER/`.
    var uploadsPath: String { "/remote.php/dav/uploads/\(user)/" }

    /// The target a `Destination` header names under the files collection (or its legacy
    /// path), relative to it.
    func filesTarget(of request: Request) throws -> String {
        guard let header = request.headers[HTTPField.Name("Destination")!], let url = URL(string: header) else {
            throw NextcloudFailure.badRequest("The destination header was not supplied")
        }
        let path = url.path(percentEncoded: false)
        guard
            let filesPrefix = ["/remote.php/dav/files/\(user)/", Self.legacyFilesPrefix + "/"].first(where: {
                path.hasPrefix($0)
            })
        else {
            throw NextcloudFailure(
                status: 502, exception: "Sabre\\DAV\\Exception\\BadGateway",
                message: "The destination is not under the files collection of \(user)")
        }
        var target = String(path.dropFirst(filesPrefix.count))
        while target.hasSuffix("/") { target.removeLast() }
        return target
    }

    private func listUploadFolders(_ request: Request) throws -> Response {
        let depth = request.headers[HTTPField.Name("Depth")!] ?? "infinity"
        guard depth == "0" || depth == "1" else { throw Self.infinityRefused }
        var responses = [
            NextcloudAnswers.response(
                href: uploadsPath, found: [("{DAV:}resourcetype", "<d:collection/>")], missing: [])
        ]
        if depth == "1" {
            let transfers = uploads.withTransfers { $0 }
            for (id, transfer) in transfers.sorted(by: { $0.key < $1.key }) {
                responses.append(
                    NextcloudAnswers.response(
                        href: NextcloudAnswers.href(uploadsPath, id, isFolder: true),
                        found: [
                            ("{DAV:}resourcetype", "<d:collection/>"),
                            ("{DAV:}getetag", "&quot;\(transfer.etag)&quot;"),
                        ], missing: []))
            }
        }
        return NextcloudAnswers.multistatus(responses)
    }

    static let infinityRefused = NextcloudFailure(
        status: 403, exception: "Sabre\\DAV\\Exception\\Forbidden",
        message: "PROPFIND requests with a Depth of Infinity are not allowed")

    private func listChunks(_ request: inout Request, id: String) async throws -> Response {
        let depth = request.headers[HTTPField.Name("Depth")!] ?? "infinity"
        guard depth == "0" || depth == "1" else { throw Self.infinityRefused }
        let wanted = try await requestedProperties(&request)
        let transfer = try uploads.withTransfers { transfers in
            guard let transfer = transfers[id] else { throw Self.noUploadFolder(id) }
            return transfer
        }
        let folderHref = NextcloudAnswers.href(uploadsPath, id, isFolder: true)
        let folderProperties: [String: String] = [
            "{DAV:}resourcetype": "<d:collection/>",
            "{DAV:}getetag": "&quot;\(transfer.etag)&quot;",
            "{DAV:}getlastmodified": NextcloudAnswers.httpDate(Int64(transfer.lastActivity.timeIntervalSince1970)),
            "{http://owncloud.org/ns}fileid": String(format: "%08d", transfer.fileID),
            "{http://owncloud.org/ns}id": NextcloudStore.ocID(transfer.fileID),
            "{http://owncloud.org/ns}size": String(transfer.totalSize),
        ]
        var responses = [Self.describe(folderProperties, href: folderHref, wanted: wanted)]
        if depth == "1" {
            for (name, chunk) in transfer.orderedChunks {
                let properties: [String: String] = [
                    "{DAV:}resourcetype": "",
                    "{DAV:}getcontentlength": String(chunk.size),
                    "{DAV:}getetag": "&quot;\(chunk.etag)&quot;",
                    "{DAV:}getlastmodified": NextcloudAnswers.httpDate(chunk.modified),
                ]
                responses.append(Self.describe(properties, href: folderHref + name, wanted: wanted))
            }
            // Nextcloud lists the file the chunks will make, as `.file`, beside them.
            let future: [String: String] = [
                "{DAV:}resourcetype": "",
                "{DAV:}getcontentlength": String(transfer.totalSize),
                "{DAV:}getetag": "&quot;\(transfer.etag)&quot;",
                "{DAV:}getlastmodified": NextcloudAnswers.httpDate(Int64(transfer.lastActivity.timeIntervalSince1970)),
            ]
            responses.append(Self.describe(future, href: folderHref + ".file", wanted: wanted))
        }
        return NextcloudAnswers.multistatus(responses)
    }

    /// A `d:response` of the properties asked for (all of them for allprop), the others 404.
    static func describe(_ properties: [String: String], href: String, wanted: [String]?) -> String {
        let names = wanted ?? properties.keys.sorted()
        return NextcloudAnswers.response(
            href: href, found: names.compactMap { name in properties[name].map { (name, $0) } },
            missing: names.filter { properties[$0] == nil })
    }

    static func noUploadFolder(_ id: String) -> NextcloudFailure {
        NextcloudFailure.notFound("File with name \(id) could not be located")
    }

    private func makeUploadFolder(_ request: Request, id: String) throws -> Response {
        let destination =
            request.headers[HTTPField.Name("Destination")!] == nil ? nil : try filesTarget(of: request)
        let fileID = store.withState { $0.newFileID() }
        try uploads.withTransfers { transfers in
            guard transfers[id] == nil else {
                throw NextcloudFailure(
                    status: 405, exception: "Sabre\\DAV\\Exception\\MethodNotAllowed",
                    message: "The resource you tried to create already exists")
            }
            let now = Date()
            transfers[id] = NextcloudTransfer(
                destination: destination, fileID: fileID, created: now, lastActivity: now,
                etag: NextcloudStore.newETag())
        }
        return NextcloudAnswers.empty(status: 201)
    }

    private func abortUpload(id: String) throws -> Response {
        let removed = try uploads.withTransfers { transfers in
            guard let transfer = transfers[id] else { throw Self.noUploadFolder(id) }
            guard !transfer.assembling else { throw NextcloudFailure.locked(id) }
            transfers[id] = nil
            return transfer
        }
        NextcloudUploads.removeFiles(of: removed)
        return NextcloudAnswers.empty(status: 204)
    }

    /// Refuses a request to a version 2 upload folder that lacks its `Destination`, or a chunk
    /// name that is not a number from 1 to 10000.
    private func checkVersion2(_ transfer: NextcloudTransfer, request: Request, chunk: String?) throws {
        guard transfer.isVersion2 else { return }
        guard request.headers[HTTPField.Name("Destination")!] != nil else {
            throw NextcloudFailure.badRequest("The destination header was not supplied")
        }
        if let chunk {
            guard chunk.allSatisfy(\.isASCII), let number = Int(chunk), (1...10000).contains(number) else {
                throw NextcloudFailure.badRequest("Invalid chunk name, must be numeric between 1 and 10000")
            }
        }
    }

    private func putChunk(_ request: inout Request, id: String, name: String) async throws -> Response {
        guard name != ".file" else {
            throw NextcloudFailure(
                status: 403, exception: "Sabre\\DAV\\Exception\\Forbidden", message: ".file cannot be written")
        }
        let transfer = try uploads.withTransfers { transfers in
            guard let transfer = transfers[id] else { throw Self.noUploadFolder(id) }
            return transfer
        }
        try checkVersion2(transfer, request: request, chunk: name)
        let limit = singlePutLimit
        if let announced = request.headers[.contentLength].flatMap({ Int64($0) }), announced > limit {
            throw NextcloudFailure.entityTooLarge(limit: limit)
        }
        let file = try blobs.makeScratchFile()
        let size: Int64?
        do {
            size = try await BlobStore.append(request.body, to: file, limit: limit) { _ in }
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        guard let size else {
            try? FileManager.default.removeItem(at: file)
            throw NextcloudFailure.entityTooLarge(limit: limit)
        }
        let chunk = NextcloudChunk(
            file: file, size: size, etag: NextcloudStore.newETag(), modified: Int64(Date().timeIntervalSince1970))
        let outcome: Result<NextcloudChunk?, NextcloudFailure> = uploads.withTransfers { transfers in
            guard var current = transfers[id] else { return .failure(Self.noUploadFolder(id)) }
            guard !current.assembling else { return .failure(NextcloudFailure.locked(id)) }
            let replaced = current.chunks[name]
            current.chunks[name] = chunk
            current.lastActivity = Date()
            current.etag = NextcloudStore.newETag()
            transfers[id] = current
            return .success(replaced)
        }
        switch outcome {
        case .failure(let failure):
            try? FileManager.default.removeItem(at: file)
            throw failure
        case .success(let replaced):
            if let replaced { try? FileManager.default.removeItem(at: replaced.file) }
            var headers: HTTPFields = [.eTag: "\"\(chunk.etag)\""]
            headers[HTTPField.Name("OC-ETag")!] = "\"\(chunk.etag)\""
            return NextcloudAnswers.empty(status: replaced == nil ? 201 : 204, headers: headers)
        }
    }

    private func deleteChunk(id: String, name: String) throws -> Response {
        let removed = try uploads.withTransfers { transfers -> NextcloudChunk in
            guard var transfer = transfers[id] else { throw Self.noUploadFolder(id) }
            guard !transfer.assembling else { throw NextcloudFailure.locked(id) }
            guard let chunk = transfer.chunks.removeValue(forKey: name) else {
                throw NextcloudFailure.notFound("File with name \(id)/\(name) could not be located")
            }
            transfer.lastActivity = Date()
            transfer.etag = NextcloudStore.newETag()
            transfers[id] = transfer
            return chunk
        }
        try? FileManager.default.removeItem(at: removed.file)
        return NextcloudAnswers.empty(status: 204)
    }
}
