import BenchmarkSupport
import Foundation
import StratusHTTP

/// What one mock sustains: many small metadata requests, or whole downloads read and thrown
/// away, `concurrency` at a time over one bare `StratusHTTPClient` (no adapter work on top).
/// OneDrive's downloads read the pre-authenticated URL on the content host (asked for once, as
/// `@microsoft.graph.downloadUrl`), without the bearer token.
struct MockCapacity {
    let endpoint: MockEndpoint
    let http: StratusHTTPClient

    /// - Parameter target: Dropbox: the file's path; Drive and OneDrive: the file's id.
    /// - Returns: The body bytes received.
    func run(pulling: Bool, count: Int, concurrency: Int, target: String) async throws -> Int64 {
        let request =
            endpoint.provider == .onedrive && pulling
            ? try await oneDriveDownload(target) : try self.request(pulling: pulling, target: target)
        let next = Counter()
        return try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var received: Int64 = 0
                    while next.take(below: count) != nil {
                        if pulling {
                            let response = try await http.stream(request)
                            guard (200..<300).contains(response.status) else {
                                throw BenchmarkFailure("\(request) answered \(response.status)")
                            }
                            for try await piece in response.body { received += Int64(piece.count) }
                        } else {
                            let response = try await http.execute(request)
                            guard response.isSuccess else {
                                throw BenchmarkFailure("\(request) answered \(response.status)")
                            }
                            received += Int64(response.body.count)
                        }
                    }
                    return received
                }
            }
            return try await group.reduce(0, +)
        }
    }

    private func request(pulling: Bool, target: String) throws -> StratusHTTPRequest {
        let authorization = ("Authorization", "Bearer \(endpoint.accessToken)")
        let base = endpoint.baseURL
        let argument = "{\"path\":\"\(target)\"}"
        let (method, address, headers, body): (StratusHTTPMethod, String, StratusHTTPHeaders, HTTPRequestBody) =
            switch (endpoint.provider, pulling) {
            case (.dropbox, false):
                (
                    .post, "\(base)/2/files/get_metadata",
                    StratusHTTPHeaders([authorization, ("Content-Type", "application/json")]),
                    .bytes(Data(argument.utf8))
                )
            case (.dropbox, true):
                (
                    .post, "\(base)/2/files/download",
                    StratusHTTPHeaders([authorization, ("Dropbox-API-Arg", argument)]), .empty
                )
            case (.drive, false):
                (
                    .get, "\(base)/drive/v3/files/\(target)?fields=id,name,size", StratusHTTPHeaders([authorization]),
                    .empty
                )
            case (.drive, true):
                (.get, "\(base)/drive/v3/files/\(target)?alt=media", StratusHTTPHeaders([authorization]), .empty)
            case (.onedrive, _):
                (
                    .get, "\(base)/v1.0/me/drive/items/\(target)?$select=id,name,size",
                    StratusHTTPHeaders([authorization]), .empty
                )
            case (.s3, _), (.s3Ceph, _), (.webdav, _):
                throw BenchmarkFailure("the capacity rows are for the mocks")
            }
        guard let url = URL(string: address) else { throw BenchmarkFailure("'\(address)' is not a URL") }
        return StratusHTTPRequest(method: method, url: url, headers: headers, body: body)
    }

    /// The request for a OneDrive file's bytes: its pre-authenticated URL, without `Authorization`.
    private func oneDriveDownload(_ id: String) async throws -> StratusHTTPRequest {
        let address = "\(endpoint.baseURL)/v1.0/me/drive/items/\(id)?$select=id,@microsoft.graph.downloadUrl"
        guard let url = URL(string: address) else { throw BenchmarkFailure("'\(address)' is not a URL") }
        let response = try await http.execute(
            StratusHTTPRequest(
                url: url, headers: StratusHTTPHeaders([("Authorization", "Bearer \(endpoint.accessToken)")])))
        struct Item: Decodable {
            var downloadURL: URL
            enum CodingKeys: String, CodingKey { case downloadURL = "@microsoft.graph.downloadUrl" }
        }
        guard response.isSuccess, let item = try? JSONDecoder().decode(Item.self, from: response.body) else {
            throw BenchmarkFailure("no download URL for OneDrive file \(id) (\(response.status))")
        }
        return StratusHTTPRequest(url: item.downloadURL)
    }
}
