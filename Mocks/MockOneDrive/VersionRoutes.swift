import Foundation
import Hummingbird
import MockSupport

/// `GET /versions`, `GET /versions/{id}`, `POST /versions/{id}/restoreVersion`.
extension MockOneDriveServer {
    /// A version as Graph writes a driveItemVersion.
    private func json(of version: GraphVersion, driveID: String) -> [String: Any] {
        [
            "id": version.id,
            "lastModifiedDateTime": GraphJSON.time(version.modified),
            "size": version.blob.size,
            "lastModifiedBy": ["user": ["displayName": "Stratus Mock", "id": driveID]],
        ]
    }

    /// The file's versions, newest (the current content) first.
    func listVersions(_ address: GraphAddress) throws(GraphFailure) -> Response {
        let text = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let item = try existing(address, in: &state)
            guard !item.isFolder else { throw .invalidRequest("Folders have no versions.") }
            let values = item.versions.reversed().map { json(of: $0, driveID: state.driveID) }
            return GraphJSON.text(["value": values])
        }
        return Response.json(text: text)
    }

    /// One version.
    func getVersion(_ address: GraphAddress, versionID: String) throws(GraphFailure) -> Response {
        let text = try store.withState { (state: inout GraphState) throws(GraphFailure) -> String in
            let item = try existing(address, in: &state)
            guard let version = item.versions.first(where: { $0.id == versionID }) else {
                throw .itemNotFound("The version \(versionID) does not exist.")
            }
            return GraphJSON.text(json(of: version, driveID: state.driveID))
        }
        return Response.json(text: text)
    }

    /// Makes a version current again, as a new version: 204.
    func restoreVersion(_ address: GraphAddress, versionID: String) throws(GraphFailure) -> Response {
        try store.withState { (state: inout GraphState) throws(GraphFailure) in
            let item = try existing(address, in: &state)
            try state.restore(item.id, version: versionID)
        }
        return Response(status: .noContent)
    }
}
