import Foundation
import Testing

@testable import MockDrive

@Suite("fields and q parsers")
struct ParserTests {
    @Test("fields: nesting, slashes, * and malformed selections")
    func fieldMasks() throws {
        let mask = try FieldMask(parsing: "nextPageToken, files(id,name,appProperties), files/size")
        let applied =
            mask.apply(
                [
                    "kind": "drive#fileList", "nextPageToken": "t",
                    "files": [["id": "1", "name": "a", "size": "3", "mimeType": "x", "appProperties": ["k": "v"]]],
                ] as [String: Any]) as? [String: Any]
        #expect(applied?["kind"] == nil)
        let file = try #require((applied?["files"] as? [[String: Any]])?.first)
        #expect(Set(file.keys) == ["id", "name", "size", "appProperties"])
        #expect(mask.unknownNames(.fileList).isEmpty)
        #expect(try FieldMask(parsing: "files(bogus)").unknownNames(.fileList) == ["files/bogus"])
        #expect(try FieldMask(parsing: "appProperties/anything").unknownNames(.file).isEmpty)
        for bad in ["", "files(", "files)", "a,,b", "files()"] {
            #expect(throws: FieldMask.ParseError.self, "\(bad)") { try FieldMask(parsing: bad) }
        }
    }

    @Test("q: precedence of not, and, or; escapes; refusals")
    func queries() throws {
        let node = DriveNode(
            id: "f", serial: 1, name: "it's \\ here", mimeType: "text/plain", parents: ["p"], space: .drive,
            createdTime: Date(timeIntervalSince1970: 1_000), modifiedTime: Date(timeIntervalSince1970: 2_000),
            version: 1
        )
        let subject = DriveQuery.Subject(node: node, trashed: false, resolve: { $0 })
        func matches(_ q: String) throws -> Bool { try DriveQuery(parsing: q).matches(subject) }
        #expect(try matches("name = 'it\\'s \\\\ here'"))
        #expect(try matches("'p' in parents and not trashed = true"))
        #expect(try matches("name = 'x' or 'p' in parents and mimeType = 'text/plain'"))
        #expect(try !matches("(name = 'x' or 'p' in parents) and mimeType = 'image/png'"))
        #expect(try matches("modifiedTime > '1970-01-01T00:20:00Z' and createdTime < '1970-01-01T00:20:00.000Z'"))
        #expect(try matches(""))
        for bad in [
            "name = 'x' and", "(name = 'x'", "name ~ 'x'", "modifiedTime > 'yesterday'", "trashed contains true",
            "'p' in",
        ] {
            #expect(throws: DriveQuery.ParseError.self, "\(bad)") { try DriveQuery(parsing: bad) }
        }
    }
}
