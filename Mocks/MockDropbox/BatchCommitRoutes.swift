import Hummingbird

/// `upload_session/finish_batch_v2`, `upload_session/finish_batch` and
/// `upload_session/finish_batch/check`: many upload sessions committed as one write.
extension MockDropboxServer {
    /// The batch-commit routes, by name under `/2/files/`.
    var batchCommitRoutes: [(String, @Sendable (inout Request) async throws -> Response)] { [] }
}
