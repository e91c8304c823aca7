import Hummingbird

/// A failure a route throws; the route answers with its body.
struct DriveFailure: Error {
    /// The body to answer with.
    let body: DriveErrorBody

    init(_ body: DriveErrorBody) {
        self.body = body
    }

    /// Runs a route, turning a ``DriveFailure`` or an `HTTPError` from reading the request into
    /// Google's error shape.
    static func answer(_ route: () async throws -> Response) async throws -> Response {
        do {
            return try await route()
        } catch let failure as DriveFailure {
            return failure.body.response()
        } catch let error as HTTPError {
            let code = Int(error.status.code)
            let reason = code == 413 ? "uploadTooLarge" : "badRequest"
            return DriveErrorBody(code: code, reason: reason, message: error.body ?? error.status.reasonPhrase)
                .response()
        }
    }
}
