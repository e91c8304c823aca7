import Foundation
import Stratus
import StratusAdapterKit

/// A page of `files.list`.
struct DriveFileList: DriveAnswer {
    var files: [DriveFile] = []
    var nextPageToken: String?

    init(json reader: inout JSONReader) throws(JSONReadError) {
        var list = DriveFileList()
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "files":
                list.files = try DriveJSON.list(&reader)
            case "nextPageToken": list.nextPageToken = try reader.readStringUnlessNull()
            default: try reader.skipValue()
            }
        }
        self = list
    }

    private init() {}
}

/// One entry of `changes.list`.
struct DriveChange: DriveAnswer {
    var changeType: String?
    var fileId: String?
    var removed = false
    var file: DriveFile?

    init(json reader: inout JSONReader) throws(JSONReadError) {
        var change = DriveChange()
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "changeType": change.changeType = try reader.readStringUnlessNull()
            case "fileId": change.fileId = try reader.readStringUnlessNull()
            case "removed": change.removed = try reader.readNull() ? false : reader.readBool()
            case "file": change.file = try reader.readNull() ? nil : DriveFile(json: &reader)
            default: try reader.skipValue()
            }
        }
        self = change
    }

    private init() {}
}

/// A page of `changes.list`: `nextPageToken` while more pages remain, `newStartPageToken` on
/// the last page.
struct DriveChangeList: DriveAnswer {
    var changes: [DriveChange] = []
    var nextPageToken: String?
    var newStartPageToken: String?

    init(json reader: inout JSONReader) throws(JSONReadError) {
        var list = DriveChangeList()
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "changes":
                list.changes = try DriveJSON.list(&reader)
            case "nextPageToken": list.nextPageToken = try reader.readStringUnlessNull()
            case "newStartPageToken": list.newStartPageToken = try reader.readStringUnlessNull()
            default: try reader.skipValue()
            }
        }
        self = list
    }

    private init() {}
}

/// The answer of `changes.getStartPageToken`.
struct DriveStartPageToken: DriveAnswer {
    var startPageToken: String

    init(json reader: inout JSONReader) throws(JSONReadError) {
        var token: String?
        try reader.readObject { member, reader throws(JSONReadError) in
            if member == "startPageToken" { token = try reader.readStringUnlessNull() } else { try reader.skipValue() }
        }
        guard let token else { throw reader.error("a startPageToken") }
        startPageToken = token
    }
}

/// A Drive `Revision`.
struct DriveRevision: DriveAnswer, Equatable {
    var id: String
    var size: Int64?
    var md5Checksum: String?
    var modifiedTime: Date?

    /// The partial-response field list for one revision.
    static let fields = "id,size,md5Checksum,modifiedTime"

    init(id: String, size: Int64?, md5Checksum: String?, modifiedTime: Date?) {
        self.id = id
        self.size = size
        self.md5Checksum = md5Checksum
        self.modifiedTime = modifiedTime
    }

    init(json reader: inout JSONReader) throws(JSONReadError) {
        var id: String?
        var revision = DriveRevision(id: "", size: nil, md5Checksum: nil, modifiedTime: nil)
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "id": id = try reader.readStringUnlessNull()
            case "size": revision.size = try DriveJSON.int64(&reader)
            case "md5Checksum": revision.md5Checksum = try reader.readStringUnlessNull()?.lowercased()
            case "modifiedTime": revision.modifiedTime = try DriveJSON.date(&reader)
            default: try reader.skipValue()
            }
        }
        guard let id else { throw reader.error("a revision with an id") }
        revision.id = id
        self = revision
    }
}

/// A page of `revisions.list`.
struct DriveRevisionList: DriveAnswer {
    var revisions: [DriveRevision] = []
    var nextPageToken: String?

    init(json reader: inout JSONReader) throws(JSONReadError) {
        var list = DriveRevisionList()
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "revisions":
                list.revisions = try DriveJSON.list(&reader)
            case "nextPageToken": list.nextPageToken = try reader.readStringUnlessNull()
            default: try reader.skipValue()
            }
        }
        self = list
    }

    private init() {}
}
