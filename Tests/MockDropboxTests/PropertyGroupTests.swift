import Foundation
import MockProviders
import StratusHTTP
import Testing

@Suite("Property groups")
struct PropertyGroupTests {
    func propertiesCall(_ harness: DropboxHarness, _ route: String, _ arguments: [String: Any]) async throws
        -> StratusHTTPResponse
    {
        var headers = harness.headers(token: harness.token)
        headers.set("Content-Type", "application/json")
        let url = harness.baseURL.appendingPathComponent("2/file_properties/templates/" + route)
        let body = try JSONSerialization.data(withJSONObject: arguments)
        return try await harness.client.execute(
            StratusHTTPRequest(method: .post, url: url, headers: headers, body: .bytes(body)))
    }

    @Test("A user template's groups are stored with an upload and returned by include_property_groups")
    func roundTrip() async throws {
        try await DropboxMockProvider().withSession { harness in
            let added = try await propertiesCall(
                harness, "add_for_user",
                [
                    "name": "Save", "description": "Save slot facts",
                    "fields": [["name": "device", "description": "Where it was saved", "type": "string"]],
                ])
            #expect(added.status == 200)
            let templateID = try #require(try DropboxHarness.object(added)["template_id"] as? String)
            #expect(templateID.hasPrefix("ptid:"))
            let fetched = try DropboxHarness.object(
                try await propertiesCall(harness, "get_for_user", ["template_id": templateID]))
            #expect(fetched["name"] as? String == "Save")
            #expect(
                ((fetched["fields"] as? [[String: Any]])?.first?["type"] as? [String: Any])?[".tag"] as? String
                    == "string")

            let group: [String: Any] = ["template_id": templateID, "fields": [["name": "device", "value": "phone"]]]
            let uploaded = try await harness.contentCall(
                "upload", ["path": "/slot.sav", "property_groups": [group]], data: Data("s".utf8))
            #expect(uploaded.status == 200)
            let filter: [String: Any] = [".tag": "filter_some", "filter_some": [templateID]]
            let metadata = try DropboxHarness.object(
                try await harness.rpc("get_metadata", ["path": "/slot.sav", "include_property_groups": filter])
            )
            let groups = try #require(metadata["property_groups"] as? [[String: Any]])
            #expect(groups.first?["template_id"] as? String == templateID)
            #expect((groups.first?["fields"] as? [[String: Any]])?.first?["value"] as? String == "phone")
            let plain = try DropboxHarness.object(try await harness.rpc("get_metadata", ["path": "/slot.sav"]))
            #expect(plain["property_groups"] == nil)

            let listed = try DropboxHarness.object(
                try await harness.rpc("list_folder", ["path": "", "include_property_groups": filter]))
            #expect(((listed["entries"] as? [[String: Any]])?.first?["property_groups"] as? [Any])?.count == 1)

            let unknown: [String: Any] = ["template_id": "ptid:nope", "fields": [["name": "device", "value": "x"]]]
            let refused = try await harness.contentCall(
                "upload", ["path": "/other.sav", "property_groups": [unknown]], data: Data("o".utf8))
            #expect(refused.status == 409)
            #expect(
                try DropboxHarness.object(refused)["error_summary"] as? String
                    == "properties_error/template_not_found/...")
            let missing = try await propertiesCall(harness, "get_for_user", ["template_id": "ptid:nope"])
            #expect(missing.status == 409)
        }
    }
}
