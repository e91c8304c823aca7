import Foundation
import MockSupport
import Testing

@testable import MockDrive

/// `changes.list` written straight into text must be the bytes the dictionary path gives: the
/// answer built as dictionaries, narrowed with `FieldMask.apply` and written sorted.
@Suite struct ChangeListTextTests {
    private static let time = Date(timeIntervalSince1970: 1_764_000_000.125)

    private static let file: DriveNode = {
        var node = DriveNode(
            id: "1file", serial: 1, name: "save \"1\".tar.gz", mimeType: "application/octet-stream", parents: ["0root"],
            space: .drive, createdTime: time, modifiedTime: time, version: 3)
        node.appProperties = ["slot": "1", "Level": "13", "a2": "x"]
        node.description = "a\nb"
        let blob = BlobInfo(sha256: String(repeating: "a", count: 64), contentHash: "c", md5: "m", size: 12)
        node.revisions = [
            DriveRevision(
                id: "r1", content: StoredContent(blob: blob, sha1: "s"), mimeType: "application/octet-stream",
                modifiedTime: time, keepForever: false, originalFilename: "save.tar.gz")
        ]
        node.headRevisionID = "r1"
        return node
    }()

    /// In the trash (through a folder of its own, as far as the answer shows).
    private static let folder: DriveNode = {
        var node = DriveNode(
            id: "2folder", serial: 2, name: "Saves", mimeType: folderMimeType, parents: ["0root"], space: .drive,
            createdTime: time, modifiedTime: time, version: 1)
        node.trashedTime = time
        return node
    }()

    private static let records = [
        ChangeRecord(sequence: 5, fileID: "1file", time: time, removed: false, space: .drive),
        ChangeRecord(sequence: 6, fileID: "9gone", time: time, removed: true, space: .drive),
        ChangeRecord(sequence: 7, fileID: "2folder", time: time, removed: false, space: .drive),
    ]

    private static let nodes = ["1file": file, "2folder": folder]

    /// The answer as the mock built it before: dictionaries, `apply`, `SortedJSONText`.
    private func reference(_ mask: FieldMask, nextPageToken: String?) -> String? {
        let fileFields = DriveNode.nestedFields(DriveNode.nestedFields(mask, "changes"), "file")
        let changes: [[String: Any]] = Self.records.map { record in
            var change: [String: Any] = [
                "kind": "drive#change", "type": "file", "changeType": "file", "fileId": record.fileID,
                "time": DriveTime.format(record.time),
            ]
            if let node = Self.nodes[record.fileID] {
                change["removed"] = false
                change["file"] = node.resource(effectivelyTrashed: node.trashedTime != nil, fields: fileFields)
            } else {
                change["removed"] = true
            }
            return change
        }
        var list: [String: Any] = ["kind": "drive#changeList", "changes": changes]
        if let nextPageToken { list["nextPageToken"] = nextPageToken } else { list["newStartPageToken"] = "8" }
        return SortedJSONText.make(mask.apply(list))
    }

    @Test(arguments: [
        DefaultFields.changeList,
        "nextPageToken,newStartPageToken,changes(changeType,fileId,removed,file(id,name,mimeType,parents,size,md5Checksum,headRevisionId,modifiedTime,trashed,appProperties))",
        "*",
        "changes",
        "changes(*)",
        "changes(file)",
        "changes(fileId),kind",
        "changes/file/name,newStartPageToken",
        "changes(file(id,owners(displayName),lastModifyingUser/me))",
        "changes(file(id,trashed,trashedTime,trashingUser/displayName,size,fileExtension,fullFileExtension))",
        "kind,nextPageToken",
        "nextPageToken",
    ])
    func theSameBytesAsTheDictionaryPath(_ fields: String) throws {
        let mask = try FieldMask(parsing: fields)
        for nextPageToken in ["8", nil] {
            var text = ChangeListText(mask: mask, capacity: Self.records.count)
            for record in Self.records {
                text.append(record, node: Self.nodes[record.fileID]) { $0.trashedTime != nil }
            }
            let written = String(
                decoding: text.text(nextPageToken: nextPageToken, newStartPageToken: "8"), as: UTF8.self)
            #expect(written == reference(mask, nextPageToken: nextPageToken))
        }
    }
}
