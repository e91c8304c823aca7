import Hummingbird

/// `move_v2`, `copy_v2`, `create_folder_v2`, `delete_batch` and `delete_batch/check`.
extension MockDropboxServer {
    /// The relocation and folder routes, by name under `/2/files/`.
    var relocationRoutes: [(String, @Sendable (inout Request) async throws -> Response)] { [] }
}
