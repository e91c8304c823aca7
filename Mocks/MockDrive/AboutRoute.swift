import Foundation
import Hummingbird

/// `about.get`: the user, the storage quota and the upload limit.
extension MockDriveServer {
    func about(_ request: Request) throws -> Response {
        let query = DriveQueryParameters(request)
        guard let fields = query["fields"], !fields.isEmpty else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "required", message: "The 'fields' parameter is required for this method.",
                    location: "fields"
                ))
        }
        let (usage, trash) = store.withState { state in
            var usage: Int64 = 0
            var trash: Int64 = 0
            for node in state.nodes.values {
                let bytes = node.revisions.reduce(Int64(0)) { $0 + $1.blob.size }
                usage += bytes
                if state.isTrashed(node.id) { trash += bytes }
            }
            return (usage, trash)
        }
        var quota: [String: Any] = [
            "usage": String(usage), "usageInDrive": String(usage), "usageInDriveTrash": String(trash),
        ]
        if let limit = options.storageQuotaLimit { quota["limit"] = String(limit) }
        let about: [String: Any] = [
            "kind": "drive#about",
            "user": DriveNode.user,
            "storageQuota": quota,
            "maxUploadSize": String(options.maxUploadBytes),
            "appInstalled": true,
            "canCreateDrives": false,
            "importFormats": [String: Any](),
            "exportFormats": [String: Any](),
            "folderColorPalette": ["#ac725e"],
            "maxImportSizes": [String: Any](),
        ]
        let schema = FieldSchema.leaves(
            [
                "kind", "user", "storageQuota", "maxUploadSize", "appInstalled", "canCreateDrives", "importFormats",
                "exportFormats", "folderColorPalette", "maxImportSizes", "driveThemes", "canCreateTeamDrives",
                "teamDriveThemes",
            ],
            open: [
                "user", "storageQuota", "importFormats", "exportFormats", "maxImportSizes", "driveThemes",
                "teamDriveThemes",
            ]
        )
        return try answer(about, query: query, schema: schema, defaultFields: fields)
    }
}
