import Foundation
import Stratus
import StratusOAuth
import StratusTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Local tricks against the token file: a FIFO at its path, a file someone else owns, a folder
/// others can write.
@Suite struct TokenFileTrustTests {
    let token = OAuthToken(accessToken: "access-SECRET", refreshToken: "refresh-SECRET", scopes: ["a"])

    @Test func aFIFOAtThePathIsRefusedWithoutHanging() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let url = folder.appendingPathComponent("token.json")
            #expect(mkfifo(url.path, 0o600) == 0)
            // Opened without O_NONBLOCK, the read waits for a writer forever: after 5 s a writer
            // comes along to let it go, and the test records that it had to.
            let rescued = Flag()
            let rescue = Task.detached {
                try await Task.sleep(for: .seconds(5))
                rescued.value.withLock { $0 = true }
                let writer = open(url.path, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { close(writer) }
            }
            let result = await Task.detached { try await FileTokenStore(url: url).load() }.result
            rescue.cancel()
            #expect(rescued.value.withLock { $0 } == false, "loading a FIFO hung")
            guard case .failure(let error as ServiceError) = result else {
                Issue.record("expected a ServiceError, got \(result)")
                return
            }
            #expect(error.code == .localFile, "\(error)")
            #expect(error.message.contains("not a regular file"))
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the file to another user"))
    func aFileOwnedBySomeoneElseIsRefused() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let url = folder.appendingPathComponent("token.json")
            let store = FileTokenStore(url: url)
            try await store.save(token)
            #expect(chown(url.path, 65_534, 65_534) == 0)
            let error = await #expect(throws: ServiceError.self) { try await store.load() }
            #expect(error?.code == .permissionDenied)
            #expect(error?.message.contains("belongs to user 65534") == true, "\(String(describing: error))")
            #expect(error?.description.contains("SECRET") == false)
        }
    }

    @Test func aFolderOthersCanWriteIsRefused() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let shared = folder.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
            let url = shared.appendingPathComponent("token.json")
            let store = FileTokenStore(url: url)
            try await store.save(token)
            try setPermissions(0o777, of: shared)
            let loadError = await #expect(throws: ServiceError.self) { try await store.load() }
            #expect(loadError?.code == .permissionDenied)
            #expect(loadError?.message.contains("chmod 700") == true, "\(String(describing: loadError))")
            let saveError = await #expect(throws: ServiceError.self) { try await store.save(token) }
            #expect(saveError?.code == .permissionDenied)
            try setPermissions(0o700, of: shared)
            #expect(try await store.load() == token)
        }
    }
}

/// A flag several tasks share.
private final class Flag: Sendable {
    let value = Mutex(false)
}
