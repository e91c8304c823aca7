import Foundation
import StratusHTTP

/// Creates the change feed's files with the bare HTTP client, one create request each, next to
/// the large file (Drive: in its folder): the fastest way to a feed of 100,000 entries, and what
/// is measured is reading it, not writing it. (The mocks index files by folder and name, so a
/// fill through Stratus's own uploads would cost the same per file at any size.)
struct FeedFiller {
    let endpoint: MockEndpoint
    let http: StratusHTTPClient

    /// - Parameter anchor: Drive: the id of a file whose folder receives the new files.
    func fill(count: Int, concurrency: Int, anchor: String) async throws {
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
        case .s3, .webdav:
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
