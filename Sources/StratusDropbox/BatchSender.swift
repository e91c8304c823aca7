import Foundation
import Logging
import Stratus
import StratusAdapterKit
import StratusHTTP
import Synchronization

/// Sends one batch of commits with `upload_session/finish_batch_v2` and reads each entry's
/// outcome.
///
/// The batch is one write whose answer can be lost: after a failure of unknown outcome, each
/// entry not yet settled is looked up (does its path hold its content?), eight at a time,
/// before the rest are sent again, so a retry never commits a file twice. A batch refused as a whole
/// (`too_many_write_operations`) is sent again after its `Retry-After`, by the retry policy's
/// one write loop.
struct BatchSender: Sendable {
    let transport: DropboxTransport
    let paths: DropboxPathMapper
    let retryPolicy: RetryPolicy
    let logger: Logger

    static let route = "files/upload_session/finish_batch_v2"
    /// How many entries are looked up at once after a lost answer.
    static let lookups = 8

    /// Sends a batch.
    /// - Returns: Each entry's outcome, in order.
    func send(_ entries: [BatchEntry]) async -> [BatchOutcome] {
        let settled = Mutex([BatchOutcome?](repeating: nil, count: entries.count))
        @Sendable func unsettled() -> [Int] {
            settled.withLock { all in all.indices.filter { all[$0] == nil } }
        }
        do {
            try await retryPolicy.runWrite(lookFirst: {
                // Up to `lookups` at a time: a lost answer to a full batch is 1,000 lookups.
                let indices = unsettled()
                await withTaskGroup(of: (Int, RemoteFile?).self) { group in
                    for index in indices.prefix(Self.lookups) {
                        group.addTask { (index, try? await holds(entries[index])) }
                    }
                    var rest = indices.dropFirst(Self.lookups).makeIterator()
                    for await (index, file) in group {
                        if let file { settled.withLock { $0[index] = .committed(file) } }
                        if let next = rest.next() {
                            group.addTask { (next, try? await holds(entries[next])) }
                        }
                    }
                }
                guard unsettled().isEmpty else { return nil }
                logger.info("A lost Dropbox answer hid a batch commit that happened.")
                return ()
            }) { _ in
                let pending = unsettled()
                guard !pending.isEmpty else { return }
                let batch = StoneValue.object([
                    ("entries", .array(pending.map { argument(for: entries[$0]) }))
                ])
                let response = try await transport.send(
                    route: Self.route, host: .api, jsonArgument: batch, repetition: .never)
                try await transport.check(response, route: Self.route)
                let read = try await outcomes(of: response.body, entries: pending.map { entries[$0] })
                settled.withLock { all in
                    for (index, outcome) in zip(pending, read) { all[index] = outcome }
                }
            }
        } catch {
            settled.withLock { all in
                for index in all.indices where all[index] == nil { all[index] = .failed(error) }
            }
        }
        return settled.withLock { all in all.map { $0 ?? .failed(CancellationError()) } }
    }

    /// One `UploadSessionFinishArg`: the cursor at the session's end and the commit.
    private func argument(for entry: BatchEntry) -> StoneValue {
        .object([
            ("cursor", .object([("session_id", .string(entry.sessionID)), ("offset", .integer(entry.size))])),
            ("commit", .object(entry.commit)),
        ])
    }

    /// Reads `UploadSessionFinishBatchResult`: one `success` (`FileMetadata`) or `failure`
    /// (`UploadSessionFinishError`) per entry, in the order sent.
    private func outcomes(of body: Data, entries: [BatchEntry]) async throws -> [BatchOutcome] {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let results = object["entries"] as? [[String: Any]]
        else { throw DropboxErrorMapping.undecodable(route: Self.route, "no entries array") }
        guard results.count == entries.count else {
            throw DropboxErrorMapping.undecodable(
                route: Self.route, "\(results.count) results for \(entries.count) entries")
        }
        let secrets = await transport.credentials.knownSecrets()
        return try zip(results, entries).map { result, entry in
            switch result[".tag"] as? String {
            case "success":
                var fields = result
                fields[".tag"] = nil
                let data = try JSONSerialization.data(withJSONObject: fields)
                let metadata = try DropboxTransport.decode(DropboxMetadata.self, from: data, route: Self.route)
                return .committed(try paths.file(from: metadata, route: Self.route, requested: entry.path))
            case "failure":
                let body = try JSONSerialization.data(withJSONObject: ["error": result["failure"] ?? NSNull()])
                let error = DropboxErrorMapping.error(
                    status: 409, headers: StratusHTTPHeaders(), body: body, route: Self.route, secrets: secrets)
                return error.code == .rateLimited ? .refused(error) : .failed(error)
            default:
                throw DropboxErrorMapping.undecodable(route: Self.route, "an entry is neither success nor failure")
            }
        }
    }

    /// The file at an entry's path, when it holds the entry's content.
    private func holds(_ entry: BatchEntry) async throws -> RemoteFile? {
        let route = "files/get_metadata"
        let metadata = try await transport.rpc(
            route,
            .object([("path", .string(paths.dropboxPath(entry.path))), ("include_deleted", .bool(false))]),
            as: DropboxMetadata.self)
        guard metadata.isFile, metadata.contentHash == entry.contentHash else { return nil }
        return try paths.file(from: metadata, route: route, requested: entry.path)
    }
}
