import Foundation
import Stratus
import StratusOAuth
import StratusTestSupport
import Testing

@Suite struct FileTokenStoreTests {
    let token = OAuthToken(
        accessToken: "access-SECRET", refreshToken: "refresh-SECRET",
        expiresAt: Date(timeIntervalSince1970: 1_900_000_000), scopes: ["a"])

    @Test func missingFileLoadsAsNothing() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let loaded = try await FileTokenStore(url: folder.appendingPathComponent("none.json")).load()
            #expect(loaded == nil)
        }
    }

    @Test func createsTheFileWithMode0600AndReadsItBack() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let url = folder.appendingPathComponent("nested/deeper/token.json")
            let store = FileTokenStore(url: url)
            try await store.save(token)
            #expect(try permissions(of: url) == 0o600)
            #expect(try permissions(of: url.deletingLastPathComponent()) == 0o700)
            #expect(try await store.load() == token)
            #expect(try await FileTokenStore(url: url).load() == token)
            // Only the token file and its lock file: no temporary file is left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
                .sorted()
            #expect(names == ["token.json", "token.json.lock"])
        }
    }

    @Test func refusesAFileOthersCanReadAndSaysHowToFixIt() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let url = folder.appendingPathComponent("token.json")
            let store = FileTokenStore(url: url)
            try await store.save(token)
            try setPermissions(0o644, of: url)
            let before = try Data(contentsOf: url)

            let loadError = await #expect(throws: ServiceError.self) { try await store.load() }
            #expect(loadError?.code == .permissionDenied)
            #expect(loadError?.message.contains("chmod 600 \(url.path)") == true)
            #expect(loadError?.message.contains("644") == true)
            #expect(loadError?.description.contains("SECRET") == false)

            let updateError = await #expect(throws: ServiceError.self) {
                try await store.update { _ in
                    Issue.record("must not run")
                    return token
                }
            }
            #expect(updateError?.code == .permissionDenied)
            let saveError = await #expect(throws: ServiceError.self) { try await store.save(token) }
            #expect(saveError?.code == .permissionDenied)
            #expect(try Data(contentsOf: url) == before, "the refused file is left as it was")

            try setPermissions(0o640, of: url)
            await #expect(throws: ServiceError.self) { try await store.load() }
            try setPermissions(0o600, of: url)
            #expect(try await store.load() == token)
        }
    }

    @Test func refusesASymbolicLinkAndACorruptFile() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let target = folder.appendingPathComponent("elsewhere.json")
            try await FileTokenStore(url: target).save(token)
            let link = folder.appendingPathComponent("link.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            let linkError = await #expect(throws: ServiceError.self) { try await FileTokenStore(url: link).load() }
            #expect(linkError?.code == .permissionDenied)

            let corrupt = folder.appendingPathComponent("corrupt.json")
            _ = FileManager.default.createFile(
                atPath: corrupt.path, contents: Data("not json SECRET-CONTENT".utf8),
                attributes: [.posixPermissions: 0o600])
            let corruptError = await #expect(throws: ServiceError.self) {
                try await FileTokenStore(url: corrupt).load()
            }
            #expect(corruptError?.code == .localFile)
            #expect(corruptError?.description.contains("SECRET-CONTENT") == false)
            // A new sign-in may replace a corrupt file (but never one others can read).
            try await FileTokenStore(url: corrupt).save(token)
            #expect(try await FileTokenStore(url: corrupt).load() == token)
        }
    }

    @Test func updateWritesOnlyAChangedTokenAndClearRemovesIt() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let url = folder.appendingPathComponent("token.json")
            let store = FileTokenStore(url: url)
            let first = try await store.update { stored in
                #expect(stored == nil)
                return token
            }
            #expect(first == token)
            let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
            _ = try await store.update { stored in try #require(stored) }
            let sameInode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
            #expect(inode == sameInode, "an unchanged token is not rewritten")
            await #expect(throws: ServiceError.self) {
                try await store.update { _ in throw ServiceError(.server, "refresh failed") }
            }
            #expect(try await store.load() == token, "a failed transform leaves the token")
            try await store.clear()
            #expect(try await store.load() == nil)
            try await store.clear()
        }
    }

    @Test func updatesFromTwoStoresOnOneFileNeverInterleave() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let url = folder.appendingPathComponent("token.json")
            let stores = [FileTokenStore(url: url), FileTokenStore(url: url)]
            try await stores[0].save(OAuthToken(accessToken: "0"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let store = stores[index % 2]
                    group.addTask {
                        _ = try await store.update { stored in
                            let value = Int(stored?.accessToken ?? "") ?? -1000
                            // Widen the window in which an unlocked read-modify-write would lose an increment.
                            try await Task.sleep(for: .milliseconds(2))
                            return OAuthToken(accessToken: String(value + 1))
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await stores[1].load()?.accessToken == "40")
        }
    }

    /// The holder keeps the lock until the waiter has given up, however slow the machine, so
    /// the waiter can only finish by its own timeout; one that hangs runs into the time limit.
    @Test(.timeLimit(.minutes(1))) func aLockHeldTooLongFailsWithATimeoutInsteadOfHanging() async throws {
        try await withTemporaryFolder(prefix: "stratus-oauth-tests") { folder in
            let url = folder.appendingPathComponent("token.json")
            let holder = FileTokenStore(url: url)
            let waiter = FileTokenStore(url: url, lockTimeout: .milliseconds(150))
            let (entered, signalEntered) = AsyncStream<Void>.makeStream()
            let (release, signalRelease) = AsyncStream<Void>.makeStream()
            let holding = Task {
                try await holder.update { _ in
                    signalEntered.yield()
                    var releases = release.makeAsyncIterator()
                    await releases.next()
                    return token
                }
            }
            var iterator = entered.makeAsyncIterator()
            await iterator.next()
            let caught = await #expect(throws: ServiceError.self) { try await waiter.save(token) }
            #expect(caught?.code == .timeout)
            #expect(caught?.message.contains("token.json.lock") == true)
            signalRelease.yield()
            signalRelease.finish()
            _ = try await holding.value
            // Once the holder is done, the waiter gets the lock.
            try await waiter.save(token)
        }
    }

    @Test func inMemoryStoreSerializesUpdates() async throws {
        let store = InMemoryTokenStore(OAuthToken(accessToken: "0"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    _ = try await store.update { stored in
                        await Task.yield()
                        return OAuthToken(accessToken: String((Int(stored?.accessToken ?? "") ?? -1000) + 1))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.load()?.accessToken == "50")
        try await store.clear()
        #expect(try await store.load() == nil)
    }
}
