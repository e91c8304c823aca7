import BenchmarkSupport
import Foundation
import StratusHTTP

/// Creates the change feed's files with the bare HTTP client, next to the large file (Drive: in
/// its folder): the fastest way to a feed of 100,000 entries, and what is measured is reading
/// it, not writing it. (The mocks index files by folder and name, so a fill through Stratus's
/// own uploads would cost the same per file at any size.) Drive: one create request each.
/// OneDrive: one simple `PUT .../content` each, into `feed/` of the app folder.
/// Dropbox, whose mock refuses many overlapping commits (write contention): an upload session
/// per file (`upload_session/start` with `close`), committed 1,000 at a time by one
/// `upload_session/finish_batch_v2`, sent again after its `Retry-After` when refused.
struct FeedFiller {
    let endpoint: MockEndpoint
    let http: StratusHTTPClient

    /// - Parameter anchor: Drive: the id of a file whose folder receives the new files.
    func fill(count: Int, concurrency: Int, anchor: String) async throws {
        if endpoint.provider == .dropbox {
            try await fillDropbox(count: count, concurrency: concurrency)
            return
        }
        let parent = endpoint.provider == .drive ? try await parentFolder(of: anchor) : ""
        let content = Data((0..<16).map { UInt8($0) })
        let next = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while let index = next.take(below: count) {
                        let response = try await http.execute(
                            try request(index: index, parent: parent, content: content))
                        guard response.isSuccess else {
                            throw BenchmarkFailure("a feed file's upload answered \(response.status)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private var authorization: (String, String) { ("Authorization", "Bearer \(endpoint.accessToken)") }

    /// The most entries of one `finish_batch_v2`.
    private static let batchSize = 1000

    private func fillDropbox(count: Int, concurrency: Int) async throws {
        let content = Data((0..<16).map { UInt8($0) })
        for first in stride(from: 0, to: count, by: Self.batchSize) {
            let indexes = first..<min(count, first + Self.batchSize)
            let sessions = try await startSessions(indexes, content: content, concurrency: concurrency)
            let entries: [[String: Any]] = sessions.map { index, session in
                [
                    "cursor": ["session_id": session, "offset": content.count],
                    "commit": ["path": "/feed/\(index).bin", "mode": "overwrite"],
                ]
            }
            try await commit(try JSONSerialization.data(withJSONObject: ["entries": entries]), count: entries.count)
        }
    }

    /// An upload session per index, each closed with the content: (index, session id).
    private func startSessions(_ indexes: Range<Int>, content: Data, concurrency: Int) async throws -> [(Int, String)] {
        let next = Counter()
        let request = StratusHTTPRequest(
            method: .post, url: try url("/2/files/upload_session/start"),
            headers: StratusHTTPHeaders([
                authorization, ("Dropbox-API-Arg", "{\"close\":true}"), ("Content-Type", "application/octet-stream"),
            ]), body: .bytes(content))
        return try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var started: [(Int, String)] = []
                    while let offset = next.take(below: indexes.count) {
                        let response = try await http.execute(request)
                        struct Started: Decodable {
                            var sessionID: String
                            enum CodingKeys: String, CodingKey { case sessionID = "session_id" }
                        }
                        guard response.isSuccess,
                            let session = try? JSONDecoder().decode(Started.self, from: response.body).sessionID
                        else {
                            throw BenchmarkFailure("a feed file's upload_session/start answered \(response.status)")
                        }
                        started.append((indexes.lowerBound + offset, session))
                    }
                    return started
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }.sorted { $0.0 < $1.0 }
        }
    }

    /// `finish_batch_v2`, sent again after each 429's `Retry-After` (at most 60 times).
    private func commit(_ body: Data, count: Int) async throws {
        let request = StratusHTTPRequest(
            method: .post, url: try url("/2/files/upload_session/finish_batch_v2"),
            headers: StratusHTTPHeaders([authorization, ("Content-Type", "application/json")]), body: .bytes(body))
        for _ in 0..<60 {
            let response = try await http.execute(request)
            if response.status == 429 {
                let seconds = response.headers["Retry-After"].flatMap { Int($0) } ?? 1
                try await Task.sleep(for: .seconds(max(1, seconds)))
                continue
            }
            struct Entry: Decodable {
                var tag: String
                enum CodingKeys: String, CodingKey { case tag = ".tag" }
            }
            struct Batch: Decodable { var entries: [Entry] }
            guard response.isSuccess, let batch = try? JSONDecoder().decode(Batch.self, from: response.body) else {
                throw BenchmarkFailure("a feed batch's finish_batch_v2 answered \(response.status)")
            }
            let committed = batch.entries.filter { $0.tag == "success" }.count
            guard committed == count else {
                throw BenchmarkFailure("a feed batch committed \(committed) of \(count) files")
            }
            return
        }
        throw BenchmarkFailure("a feed batch was refused for write contention 60 times")
    }

    private func request(index: Int, parent: String, content: Data) throws -> StratusHTTPRequest {
        switch endpoint.provider {
        case .dropbox:
            let argument = "{\"path\":\"/feed/\(index).bin\",\"mode\":\"overwrite\"}"
            return StratusHTTPRequest(
                method: .post, url: try url("/2/files/upload"),
                headers: StratusHTTPHeaders([
                    authorization, ("Dropbox-API-Arg", argument), ("Content-Type", "application/octet-stream"),
                ]), body: .bytes(content))
        case .drive:
            let boundary = "stratus-feed-boundary"
            var body = Data("--\(boundary)\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n".utf8)
            body += Data("{\"name\":\"\(index).bin\",\"parents\":[\"\(parent)\"]}\r\n".utf8)
            body += Data("--\(boundary)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            body += content + Data("\r\n--\(boundary)--\r\n".utf8)
            return StratusHTTPRequest(
                method: .post, url: try url("/upload/drive/v3/files?uploadType=multipart&fields=id"),
                headers: StratusHTTPHeaders([
                    authorization, ("Content-Type", "multipart/related; boundary=\(boundary)"),
                ]), body: .bytes(body))
        case .onedrive:
            return StratusHTTPRequest(
                method: .put, url: try url("/v1.0/me/drive/special/approot:/feed/\(index).bin:/content"),
                headers: StratusHTTPHeaders([authorization, ("Content-Type", "application/octet-stream")]),
                body: .bytes(content))
        case .s3, .s3Ceph, .webdav:
            throw BenchmarkFailure("the change feed rows are for the mocks")
        }
    }

    private func parentFolder(of fileID: String) async throws -> String {
        let response = try await http.execute(
            StratusHTTPRequest(
                url: try url("/drive/v3/files/\(fileID)?fields=parents"),
                headers: StratusHTTPHeaders([authorization])))
        struct Parents: Decodable { var parents: [String] }
        guard response.isSuccess,
            let parent = try? JSONDecoder().decode(Parents.self, from: response.body).parents.first
        else {
            throw BenchmarkFailure("cannot find the folder of file \(fileID) (\(response.status))")
        }
        return parent
    }

    private func url(_ path: String) throws -> URL {
        guard let url = URL(string: endpoint.baseURL + path) else { throw BenchmarkFailure("'\(path)' makes no URL") }
        return url
    }
}
