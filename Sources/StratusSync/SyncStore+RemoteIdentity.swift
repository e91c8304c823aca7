import Stratus

extension SyncStore {
    /// Checks that the remote folder is the one this store synced with before (its marker),
    /// before anything is read or applied; the first sync writes the marker.
    func checkRemoteIdentity(_ run: SyncRun) async throws {
    }
}
