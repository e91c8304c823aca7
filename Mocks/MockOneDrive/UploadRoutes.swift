import Foundation
import Hummingbird
import MockSupport
import StratusDigest

/// Simple uploads (`PUT /content`) and upload sessions (`createUploadSession`, fragments on
/// the content host).
extension MockOneDriveServer {
    /// The most bytes one fragment may carry: under 60 MiB.
    static let largestFragment: Int64 = 60 * 1024 * 1024 - 1
    /// Every fragment but the last is a multiple of this: 320 KiB.
    static let fragmentUnit: Int64 = 320 * 1024

    /// Where a write by address goes: the file itself (by id), or a folder path and a name.
    func writeTarget(of address: GraphAddress, in state: inout GraphState) throws(GraphFailure) -> SessionTarget {
        let baseID = try baseID(of: address, in: &state)
        guard let name = address.path.last else {
            guard case .item(let id) = address.base else {
                throw .invalidRequest("Content can be written only to a file: name one with :/name:.")
            }
            return SessionTarget(baseID: baseID, folderPath: [], name: nil, existingID: id)
        }
        return SessionTarget(baseID: baseID, folderPath: Array(address.path.dropLast()), name: name, existingID: nil)
    }

    /// Writes received content where a target says.
    func commit(
        _ target: SessionTarget, blob: BlobInfo, quickXorHash: String, conflict: ConflictBehavior,
        condition: WriteCondition, dates: FileSystemDates = FileSystemDates()
    ) throws(GraphFailure) -> (text: String, created: Bool) {
        let base = contentBaseText
        let quota = options.quotaBytes
        let drift = options.eTagDriftAfterUpload
        return try store.withState { (state: inout GraphState) throws(GraphFailure) -> (text: String, created: Bool) in
            var parentID: String?
            if target.existingID == nil {
                parentID = try state.ensureFolders(from: target.baseID, path: target.folderPath)
            }
            let (item, created) = try state.writeFile(
                in: parentID, name: target.name, existingID: target.existingID, blob: blob,
                quickXorHash: quickXorHash, conflict: conflict, condition: condition, quota: quota)
            if drift { state.driftPending.insert(item.id) }
            let written = dates.apply(to: &state, id: item.id) ?? item
            return (GraphJSON.text(state.json(of: written) { self.downloadURL(base: base, version: $0) }), created)
        }
    }

    /// `PUT /content`: the body is the file (up to ``Options/simpleUploadLimit``); conflict
    /// behaviour `replace` unless the query says otherwise. 201 with a new item, 200 with a
    /// replaced one.
    func simpleUpload(_ request: Request, _ address: GraphAddress, _ graph: GraphRequest) async throws -> Response {
        let conflict = try graph.conflictBehavior(default: .replace)
        let target = try store.withState { (state: inout GraphState) throws(GraphFailure) -> SessionTarget in
            let target = try writeTarget(of: address, in: &state)
            if let id = target.existingID, state.items[id]?.isFolder != false {
                throw GraphFailure.invalidRequest("Content can be written only to a file.")
            }
            return target
        }
        if let length = request.headers[.contentLength].flatMap(Int64.init), length > options.simpleUploadLimit {
            throw GraphFailure(
                status: 413, code: "requestTooLarge",
                message: "The request is larger than \(options.simpleUploadLimit) bytes: use an upload session.")
        }
        guard let (blob, quickXor) = try await ingest(request.body, limit: options.simpleUploadLimit) else {
            throw GraphFailure(
                status: 413, code: "requestTooLarge",
                message: "The request is larger than \(options.simpleUploadLimit) bytes: use an upload session.")
        }
        let (text, created) = try commit(
            target, blob: blob, quickXorHash: quickXor, conflict: conflict, condition: graph.condition)
        return Response.json(text: text, status: created ? .created : .ok)
    }

    /// Receives a body into the blob store, hashing it on the way.
    /// - Returns: The blob and its QuickXorHash, or `nil` past `limit`.
    func ingest(_ body: RequestBody, limit: Int64) async throws -> (BlobInfo, String)? {
        let scratch = try blobs.makeScratchFile()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let digests = BlobDigests()
        let quickXor = QuickXorHash()
        guard
            let count = try await BlobStore.append(
                body, to: scratch, limit: limit,
                feeding: { bytes in
                    digests.update(bytes)
                    quickXor.update(bytes)
                })
        else { return nil }
        let info = try blobs.commit(scratch, info: digests.finalize(size: count))
        return (info, QuickXorHash.base64(quickXor.finalize()))
    }

    /// `POST /createUploadSession`: a session whose URL (on the content host) takes the
    /// fragments. As Graph does, a session on an existing file updates it (conflict behaviour
    /// `replace`) unless the body's `item` or the query says otherwise; `item.fileSystemInfo`
    /// sets the file's dates when it completes. `If-Match` and `If-None-Match` are checked now
    /// and again when the last fragment arrives.
    func createUploadSession(_ request: inout Request, _ address: GraphAddress, _ graph: GraphRequest) async throws
        -> Response
    {
        let body = try GraphJSON.object(Data(buffer: try await request.readBody(limit: 64 * 1024)))
        let conflict = try graph.conflictBehavior(body: body, default: .replace)
        let item = body["item"] as? [String: Any]
        let fileSystemInfo = try FileSystemDates(item?["fileSystemInfo"])
        let declared = (item?["fileSize"] as? NSNumber)?.int64Value
        if let declared, declared < 1 {
            throw GraphFailure.invalidRequest("item.fileSize must be a positive number of bytes.")
        }
        if let declared, declared > options.maxUploadBytes {
            throw GraphFailure(status: 413, code: "maxFileSizeExceeded", message: "The file is too large.")
        }
        let condition = graph.condition
        let target = try store.withState { (state: inout GraphState) throws(GraphFailure) -> SessionTarget in
            let target = try writeTarget(of: address, in: &state)
            let current: GraphItem?
            if let id = target.existingID {
                guard let file = state.items[id], !file.isFolder else {
                    throw GraphFailure.invalidRequest("Content can be written only to a file.")
                }
                current = file
            } else {
                current = state.resolve(from: target.baseID, path: target.folderPath + [target.name ?? ""])
            }
            try condition.check(current)
            return target
        }
        let session = UploadSession(
            id: RandomText.make(bytes: 24), target: target, conflict: conflict, condition: condition,
            total: declared, file: try blobs.makeScratchFile(), expires: sessionExpiry(), fileSystemInfo: fileSystemInfo
        )
        sessions.add(session)
        let text = GraphJSON.text([
            "@odata.context": "\(graph.baseURL)/v1.0/$metadata#microsoft.graph.uploadSession",
            "uploadUrl": "\(contentBaseText)/upload/\(session.id)",
            "expirationDateTime": GraphJSON.time(session.expires),
            "nextExpectedRanges": ["0-"],
        ])
        return Response.json(text: text)
    }

    /// When a session used now expires.
    func sessionExpiry() -> Date {
        Date().addingTimeInterval(Double(options.uploadSessionLifetime.components.seconds))
    }

    /// `GET` on a session URL: its expiry and the ranges still expected.
    func sessionStatus(session id: String) throws(GraphFailure) -> Response {
        let text = try sessions.withSession(id) { session throws(GraphFailure) -> String in
            GraphJSON.text([
                "expirationDateTime": GraphJSON.time(session.expires),
                "nextExpectedRanges": ["\(session.received)-" + (session.total.map { "\($0 - 1)" } ?? "")],
            ])
        }
        return Response.json(text: text)
    }

    /// `PUT` on a session URL: one fragment, `Content-Range: bytes a-b/total`, in order, under
    /// 60 MiB (and, with ``Options/strictClient``, each but the last a multiple of 320 KiB). 202 with `nextExpectedRanges`
    /// until the last, then 201 (new file) or 200 (replaced) with the item. A fragment already
    /// received (or out of order) answers 416.
    func receiveFragment(_ request: Request, session id: String) async throws -> Response {
        guard let rangeText = request.headers[.contentRange] else {
            throw GraphFailure(status: 400, code: "invalidRange", message: "The Content-Range header is missing.")
        }
        guard let (start, end, total) = Self.parseContentRange(rangeText) else {
            throw GraphFailure(
                status: 400, code: "invalidRange", message: "The Content-Range header is malformed: \(rangeText)")
        }
        let length = end - start + 1
        guard let announced = request.headers[.contentLength].flatMap(Int64.init) else {
            throw GraphFailure(status: 411, code: "lengthRequired", message: "Content-Length is required.")
        }
        guard announced == length else {
            throw GraphFailure(
                status: 400, code: "invalidRange", message: "Content-Length does not match the Content-Range.")
        }
        guard length <= Self.largestFragment else {
            throw GraphFailure(
                status: 413, code: "requestTooLarge", message: "A fragment must be smaller than 60 MiB.")
        }
        guard total <= options.maxUploadBytes else {
            throw GraphFailure(status: 413, code: "maxFileSizeExceeded", message: "The file is too large.")
        }
        let file = try sessions.withSession(id) { session throws(GraphFailure) -> URL in
            if let known = session.total, known != total {
                throw GraphFailure(
                    status: 400, code: "invalidRange",
                    message: "The total size \(total) differs from the session's \(known).")
            }
            guard !session.busy else {
                throw GraphFailure(
                    status: 409, code: "conflict", message: "Another fragment of this session is being received.")
            }
            guard start == session.received else {
                throw GraphFailure(
                    status: 416, code: "invalidRange",
                    message: start < session.received
                        ? "The uploaded fragment overlaps with data that has already been received."
                        : "Fragments must be sent in order: the next expected range starts at \(session.received).")
            }
            if options.strictClient, end + 1 < total, length % Self.fragmentUnit != 0 {
                throw GraphFailure(
                    status: 400, code: "invalidRange",
                    message: "Every fragment but the last must be a multiple of 320 KiB (327,680 bytes).")
            }
            session.total = total
            session.busy = true
            return session.file
        }
        let appended: Int64?
        do {
            appended = try await BlobStore.append(request.body, to: file, limit: length, feeding: { _ in })
        } catch {
            truncate(file, to: start)
            release(id, received: nil)
            throw error
        }
        guard appended == length else {
            truncate(file, to: start)
            release(id, received: nil)
            throw GraphFailure(
                status: 400, code: "invalidRange", message: "The body's length does not match the Content-Range.")
        }
        release(id, received: end + 1)
        guard end + 1 == total else {
            let text = GraphJSON.text([
                "expirationDateTime": GraphJSON.time(sessionExpiry()),
                "nextExpectedRanges": ["\(end + 1)-\(total - 1)"],
            ])
            return Response.json(text: text, status: .accepted)
        }
        return try complete(session: id)
    }

    /// Turns a session whose last byte arrived into the file.
    private func complete(session id: String) throws -> Response {
        let session = try sessions.withSession(id) { session throws(GraphFailure) -> UploadSession in session }
        defer { sessions.remove(id) }
        let (info, quickXor) = try Self.hash(fileAt: session.file)
        let blob = try blobs.commit(session.file, info: info, keepSource: true)
        let (text, created) = try commit(
            session.target, blob: blob, quickXorHash: quickXor, conflict: session.conflict,
            condition: session.condition, dates: session.fileSystemInfo)
        return Response.json(text: text, status: created ? .created : .ok)
    }

    /// A fragment is no longer being received; `received` is the new count, if it was taken.
    private func release(_ id: String, received: Int64?) {
        try? sessions.withSession(id) { session throws(GraphFailure) in
            session.busy = false
            if let received {
                session.received = received
                session.expires = sessionExpiry()
            }
        }
    }

    private func truncate(_ file: URL, to length: Int64) {
        guard let handle = try? FileHandle(forWritingTo: file) else { return }
        try? handle.truncate(atOffset: UInt64(max(0, length)))
        try? handle.close()
    }

    /// Hashes a whole file: its blob description and QuickXorHash.
    static func hash(fileAt url: URL) throws -> (BlobInfo, String) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let digests = BlobDigests()
        let quickXor = QuickXorHash()
        var count: Int64 = 0
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            count += Int64(data.count)
            data.withUnsafeBytes { bytes in
                digests.update(bytes)
                quickXor.update(bytes)
            }
        }
        return (digests.finalize(size: count), QuickXorHash.base64(quickXor.finalize()))
    }

    /// `bytes a-b/total` taken apart; `nil` unless `0 <= a <= b < total`.
    static func parseContentRange(_ text: String) -> (Int64, Int64, Int64)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes ") else { return nil }
        let parts = trimmed.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let total = Int64(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start >= 0, start <= end,
            end < total
        else { return nil }
        return (start, end, total)
    }
}
