import Foundation
import Stratus
import StratusAdapterKit
import Testing

@testable import StratusDrive

/// Decoding Drive's JSON: int64 as strings, RFC 3339 times with milliseconds, lists and pages.
@Suite struct WireDecodingTests {
    private func decode<T: DriveAnswer>(_ type: T.Type, _ json: String) throws -> T {
        try DriveJSON.decode(type, from: Data(json.utf8))
    }

    @Test func fileWithStringInt64AndMilliseconds() throws {
        let file = try decode(
            DriveFile.self,
            """
            {"kind": "drive#file", "id": "1AbC", "name": "save.json", "mimeType": "application/octet-stream",
             "parents": ["0APp"], "size": "9007199254740993", "md5Checksum": "D41D8CD98F00B204E9800998ECF8427E",
             "headRevisionId": "0B-rev", "version": "42", "modifiedTime": "2024-01-02T03:04:05.678Z",
             "createdTime": "2024-01-01T00:00:00.000Z", "trashed": false, "appProperties": {"slot": "1"}}
            """)
        #expect(file.id == "1AbC")
        #expect(file.size == 9_007_199_254_740_993)
        #expect(file.md5Checksum == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(file.headRevisionId == "0B-rev")
        #expect(file.parents == ["0APp"])
        #expect(file.appProperties == ["slot": "1"])
        let modified = try #require(file.modifiedTime)
        #expect(abs(modified.timeIntervalSince1970 - 1_704_164_645.678) < 0.0005)
        #expect(file.createdTime == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(!file.isFolder)
    }

    @Test func sparseFileAndNumbers() throws {
        let file = try decode(
            DriveFile.self,
            #"{"id": "f", "mimeType": "application/vnd.google-apps.folder", "size": 12, "modifiedTime": "2024-01-02T03:04:05Z"}"#
        )
        #expect(file.isFolder)
        #expect(file.isGoogleNative)
        #expect(file.name == "")
        #expect(file.size == 12)
        #expect(file.modifiedTime == Date(timeIntervalSince1970: 1_704_164_645))
        #expect(file.headRevisionId == nil)
    }

    @Test func badValuesAreRefused() {
        #expect(throws: JSONReadError.self) { try decode(DriveFile.self, #"{"id": "f", "size": "12x"}"#) }
        #expect(throws: JSONReadError.self) { try decode(DriveFile.self, #"{"id": "f", "modifiedTime": "yesterday"}"#) }
        #expect(throws: JSONReadError.self) { try decode(DriveFile.self, #"{"name": "no id"}"#) }
        #expect(throws: JSONReadError.self) { try decode(DriveFile.self, #"{"id": "f", "trashed": "no"}"#) }
        #expect(throws: JSONReadError.self) { try decode(DriveChangeList.self, #"{"changes": [{"file": 3}]}"#) }
        #expect(throws: JSONReadError.self) { try decode(DriveChangeList.self, #"{"newStartPageToken": "1"} x"#) }
    }

    @Test func removedAppPropertiesAreDropped() throws {
        let file = try decode(DriveFile.self, #"{"id": "f", "appProperties": {"a": "1", "b": null}}"#)
        #expect(file.appProperties == ["a": "1"])
    }

    @Test func timesWithOffsets() {
        #expect(DriveJSON.parseDate("2024-01-01T01:00:00.000+01:00") == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(DriveJSON.parseDate("2024-13-01T00:00:00Z") == nil)
    }

    @Test func changeListPages() throws {
        let middle = try decode(
            DriveChangeList.self,
            """
            {"kind": "drive#changeList", "nextPageToken": "17", "changes": [
              {"changeType": "file", "fileId": "a", "removed": false, "time": "2024-01-01T00:00:00.000Z",
               "file": {"id": "a", "name": "x.txt", "parents": ["p"], "size": "3", "headRevisionId": "r1"}},
              {"changeType": "file", "fileId": "b", "removed": true, "time": "2024-01-01T00:00:01.000Z"},
              {"changeType": "drive", "driveId": "d", "removed": false}
            ]}
            """)
        #expect(middle.nextPageToken == "17")
        #expect(middle.newStartPageToken == nil)
        #expect(middle.changes.count == 3)
        #expect(middle.changes[0].file?.size == 3)
        #expect(middle.changes[1].removed)
        #expect(middle.changes[1].file == nil)
        #expect(middle.changes[2].changeType == "drive")
        let last = try decode(DriveChangeList.self, #"{"newStartPageToken": "18"}"#)
        #expect(last.changes.isEmpty)
        #expect(last.newStartPageToken == "18")
    }

    @Test func listsAndRevisions() throws {
        let files = try decode(
            DriveFileList.self,
            #"{"files": [{"id": "a", "name": "n"}], "nextPageToken": "t", "incompleteSearch": false}"#)
        #expect(files.files.map(\.id) == ["a"])
        #expect(files.nextPageToken == "t")
        let revisions = try decode(
            DriveRevisionList.self,
            """
            {"revisions": [{"id": "r1", "size": "10", "md5Checksum": "ABC", "modifiedTime": "2024-01-01T00:00:00.000Z", "keepForever": false}]}
            """)
        #expect(
            revisions.revisions == [
                DriveRevision(
                    id: "r1", size: 10, md5Checksum: "abc", modifiedTime: Date(timeIntervalSince1970: 1_704_067_200))
            ])
        #expect(revisions.nextPageToken == nil)
        #expect(
            try decode(DriveStartPageToken.self, #"{"kind": "drive#startPageToken", "startPageToken": "5"}"#)
                .startPageToken == "5")
    }

    @Test func requestBodiesUseNullToRemove() throws {
        let data = try DriveJSONBody.encode([
            "appProperties": .object(["gone": .null, "kept": .string("é/1")]), "trashed": .bool(true),
        ])
        #expect(
            String(decoding: data, as: UTF8.self) == #"{"appProperties":{"gone":null,"kept":"é/1"},"trashed":true}"#)
    }
}

/// The check of Drive's answer to an upload against what was sent.
@Suite struct UploadCheckTests {
    private let md5 = "5d41402abc4b2a76b9719d911017c592"

    private func check(_ file: DriveFile) throws {
        try DriveService.checkUploaded(file, md5: md5, size: 5, path: try RemotePath("hello.txt"))
    }

    @Test func matchingAnswerPasses() throws {
        try check(DriveFile(id: "f", name: "hello.txt", size: 5, md5Checksum: md5))
    }

    @Test(arguments: [
        DriveFile(id: "f", name: "hello.txt", size: 5, md5Checksum: "00000000000000000000000000000000"),
        DriveFile(id: "f", name: "hello.txt", size: 4, md5Checksum: "5d41402abc4b2a76b9719d911017c592"),
        DriveFile(id: "f", name: "hello.txt", size: 5, md5Checksum: nil),
    ])
    func mismatchIsAnIntegrityError(_ file: DriveFile) {
        do {
            try check(file)
            Issue.record("A mismatching upload answer was accepted.")
        } catch let error as ServiceError {
            #expect(error.code == .integrityMismatch)
            #expect(error.message.contains(md5))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
