import Hummingbird

/// `users/get_current_account` and `users/get_space_usage`.
extension MockDropboxServer {
    /// The user routes, by name under `/2/users/`.
    var userRoutes: [(String, @Sendable (inout Request) async throws -> Response)] { [] }
}
