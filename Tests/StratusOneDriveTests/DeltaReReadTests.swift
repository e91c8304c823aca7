import Foundation
import Stratus
import StratusHTTP
import StratusOneDrive
import StratusTestSupport
import Testing

/// Issue 37 on Graph: items deleted by another client (files one by one, and a folder with the
/// files in it), a sync that stops before saving the token, and the same delta page read again
/// by the same service and by a new process: each read names every deletion.
@Suite struct DeltaReReadTests {
    @Test func deletionsAreNamedOnEveryReadAndInANewProcess() async throws {
        try await MockFixture.withRunning { fixture in
            let temporary = try TemporaryFolder()
            defer { temporary.remove() }
            let state = temporary.url.appending(path: "state", directoryHint: .isDirectory)
            let device = try fixture.makeService(pageSize: 4, stateFolder: state)
            let names = [
                "records/r0.json", "records/r1.json", "records/r2.json", "records/sub/r3.json",
                "records/sub/r4.json",
            ]
            for name in names {
                _ = try await device.upload(from: .bytes(Data(name.utf8)), to: try RemotePath(name))
            }
            let token = try await device.latestChangeToken()
            let other = try fixture.makeService()
            try await other.delete(try RemotePath("records/r0.json"))
            try await other.delete(try RemotePath("records/r1.json"))
            try await fixture.deleteDirectly("records/sub")

            let first = try await Self.allChanges(device, since: token)
            let deleted = Set(
                first.compactMap { change -> String? in
                    if case .deleted(let path) = change { return path.string }
                    return nil
                })
            #expect(deleted == ["records/r0.json", "records/r1.json", "records/sub/r3.json", "records/sub/r4.json"])
            #expect(try await Self.allChanges(device, since: token) == first, "read again by the same service")
            let restarted = try fixture.makeService(pageSize: 4, stateFolder: state)
            #expect(try await Self.allChanges(restarted, since: token) == first, "read again by a new process")
        }
    }

    /// Every change since a token, following the pages.
    static func allChanges(_ service: OneDriveService, since token: ChangeToken) async throws -> [Change] {
        var changes: [Change] = []
        var token = token
        while true {
            let page = try await service.changes(since: token)
            changes += page.changes
            token = page.nextToken
            if !page.hasMore { return changes }
        }
    }
}

extension MockFixture {
    /// Deletes an item of the app folder by path behind the adapter's back, as another client
    /// would (`DELETE /me/drive/special/approot:/<path>:`).
    func deleteDirectly(_ path: String) async throws {
        let url = URL(string: apiURL.absoluteString + "/me/drive/special/approot:/" + path + ":")
        guard let url else { throw ServiceError(.invalidPath, "No URL for \(path).") }
        var request = StratusHTTPRequest(method: .delete, url: url)
        request.headers.set("Authorization", "Bearer \(accessToken)")
        let http = try StratusHTTPClient()
        let response = try await http.execute(request)
        await http.shutdown()
        guard response.status == 204 else {
            throw ServiceError(.invalidResponse, "The mock did not delete \(path): HTTP \(response.status).")
        }
    }
}
