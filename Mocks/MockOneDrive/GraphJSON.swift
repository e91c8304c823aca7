import Foundation
import MockSupport

/// The JSON the Graph mock writes: driveItem resources, times, `$select`.
enum GraphJSON {
    /// JSON text for a value built from dictionaries, arrays, strings, numbers and booleans.
    static func text(_ value: Any) -> String {
        SortedJSONText.make(value) ?? "null"
    }

    /// Decodes a request body that must be a JSON object (an empty body is an empty object).
    /// - Throws: ``GraphFailure`` 400 `invalidRequest` when it is not.
    static func object(_ data: Data) throws(GraphFailure) -> [String: Any] {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .invalidRequest("The request body is not a JSON object.")
        }
        return object
    }

    /// Graph's times: `2026-11-27T05:40:00.123Z`.
    static func time(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        var text = UTCTimeText.make(unixSeconds: seconds)
        text += "."
        UTCTimeText.append(Int(millis - seconds * 1000), width: 3, to: &text)
        return text + "Z"
    }

    /// The properties a `$select` names, or `nil` for all.
    static func selection(_ select: String?) -> Set<String>? {
        guard let select, !select.isEmpty else { return nil }
        return Set(select.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// A resource cut down to the selected properties (annotations such as
    /// `@microsoft.graph.downloadUrl` only when selected, as Graph does).
    static func select(_ object: [String: Any], _ selection: Set<String>?) -> [String: Any] {
        guard let selection else { return object }
        return object.filter { selection.contains($0.key) }
    }

    /// The MIME type Graph would give a file, by its extension.
    static func mimeType(of name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "txt": return "text/plain"
        case "json": return "application/json"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "pdf": return "application/pdf"
        case "html", "htm": return "text/html"
        case "zip": return "application/zip"
        default: return "application/octet-stream"
        }
    }
}

extension GraphState {
    /// The `parentReference` of an item; `path` left out when `withPath` is false (delta
    /// never sends it: renamed folders do not report their descendants).
    func parentReference(of parentID: String?, withPath: Bool, folderPath: String? = nil) -> [String: Any] {
        var reference: [String: Any] = ["driveId": driveID, "driveType": "personal"]
        if let parentID {
            reference["id"] = parentID
            if withPath { reference["path"] = folderPath ?? referencePath(ofFolder: parentID) }
        }
        return reference
    }

    /// The driveItem resource of an item.
    /// - Parameters:
    ///   - item: The item.
    ///   - withPath: Whether `parentReference.path` is included.
    ///   - folderPath: The parent's reference path, when the caller already knows it.
    ///   - downloadURL: The pre-authenticated URL of a version's content.
    func json(
        of item: GraphItem, withPath: Bool = true, folderPath: String? = nil,
        downloadURL: (GraphVersion) -> String
    ) -> [String: Any] {
        let user: [String: Any] = ["user": ["displayName": "Stratus Mock", "id": driveID]]
        var object: [String: Any] = [
            "id": item.id,
            "name": item.name,
            "eTag": item.eTag,
            "cTag": item.cTag,
            "createdDateTime": GraphJSON.time(item.created),
            "lastModifiedDateTime": GraphJSON.time(item.modified),
            "fileSystemInfo": [
                "createdDateTime": GraphJSON.time(item.fileSystemCreated ?? item.created),
                "lastModifiedDateTime": GraphJSON.time(item.fileSystemModified ?? item.modified),
            ],
            "parentReference": parentReference(of: item.parentID, withPath: withPath, folderPath: folderPath),
            "createdBy": user,
            "lastModifiedBy": user,
            "webUrl": "https://onedrive.live.com/?id=\(item.id)",
        ]
        if item.isFolder {
            object["folder"] = ["childCount": folders[item.id]?.byName.count ?? 0]
            object["size"] = 0
            if item.parentID == nil { object["root"] = [String: Any]() }
            if let special = item.specialFolder { object["specialFolder"] = ["name": special] }
        } else if let content = item.content {
            object["size"] = content.blob.size
            object["file"] = [
                "mimeType": GraphJSON.mimeType(of: item.name),
                "hashes": ["quickXorHash": content.quickXorHash, "sha256Hash": content.blob.sha256.uppercased()],
            ]
            object["@microsoft.graph.downloadUrl"] = downloadURL(content)
        }
        return object
    }

    /// A deleted item as delta reports it.
    func json(ofDeleted tombstone: GraphTombstone) -> [String: Any] {
        var object: [String: Any] = [
            "id": tombstone.id,
            "name": tombstone.name,
            "deleted": ["state": "deleted"],
            "parentReference": parentReference(of: tombstone.parentID, withPath: false),
            "size": 0,
        ]
        object[tombstone.isFolder ? "folder" : "file"] = [String: Any]()
        return object
    }
}
