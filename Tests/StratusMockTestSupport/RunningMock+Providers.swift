import Foundation
import Hummingbird
import MockDrive
import MockDropbox

extension RunningMock where Server == MockDropboxServer {
    /// Runs `body` while a fresh Dropbox mock (with a Dropbox-flavoured authorization server)
    /// runs.
    /// - Parameters:
    ///   - options: The mock's options.
    ///   - storagePrefix: The start of its storage folder's name.
    ///   - front: Adds routes or middleware ahead of the mock's.
    ///   - body: The work.
    public static func dropbox<Result: Sendable>(
        options: MockDropboxServer.Options = .init(),
        storagePrefix: String = "stratus-dropbox",
        front: (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: @Sendable (RunningMock<MockDropboxServer>) async throws -> Result
    ) async throws -> Result {
        try await withRunning(
            flavor: .dropbox,
            storagePrefix: storagePrefix,
            makeServer: { storage, authorization in
                try MockDropboxServer(storageDirectory: storage, authorization: authorization, options: options)
            },
            addRoutes: { server, router in server.addRoutes(to: router) },
            front: front,
            body
        )
    }
}

extension RunningMock where Server == MockDriveServer {
    /// Runs `body` while a fresh Drive mock (with a Google-flavoured authorization server) runs.
    /// - Parameters:
    ///   - options: The mock's options.
    ///   - storagePrefix: The start of its storage folder's name.
    ///   - front: Adds routes or middleware ahead of the mock's (a proxy that rewrites answers).
    ///   - body: The work.
    public static func drive<Result: Sendable>(
        options: MockDriveServer.Options = .init(),
        storagePrefix: String = "stratus-drive",
        front: (Router<BasicRequestContext>) -> Void = { _ in },
        _ body: @Sendable (RunningMock<MockDriveServer>) async throws -> Result
    ) async throws -> Result {
        try await withRunning(
            flavor: .google,
            storagePrefix: storagePrefix,
            makeServer: { storage, authorization in
                try MockDriveServer(storageDirectory: storage, authorization: authorization, options: options)
            },
            addRoutes: { server, router in server.addRoutes(to: router) },
            front: front,
            body
        )
    }
}
