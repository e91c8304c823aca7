import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Write locks and folders.
///
/// Every write of the adapter holds an exclusive WebDAV write lock (RFC 4918 class 2) on a lock
/// resource of its own for the path, `.stratus/locks/<digest of the path>`, from the check of
/// its precondition until its state record is written. Stratus writers of one path therefore take
/// turns, and a precondition is checked and the content written in one step for them. The lock
/// resource is not the file itself: a LOCK on a missing file would create an empty one that
/// readers could see.
///
/// Writers of one service instance first take turns on the path in the instance, first come
/// first served (`AsyncLock`, per path), so only one of them at a time asks the server and none is
/// starved by the others' polling; ``WebDAVConfiguration/lockWait`` counts from the moment a
/// writer is first in that line, and bounds its wait for writers of other instances.
///
/// A lock is asked for ``lockLeaseSeconds`` (half of ``WebDAVConfiguration/lockWait``, 5 to 60
/// seconds) and refreshed every third of that while the write runs, so a lock left behind (its
/// writer died, its LOCK's answer or its UNLOCK was lost) expires before a waiting writer gives
/// up, and a long upload keeps its lock.
extension WebDAVService {
    /// The lease asked for in each LOCK: half of ``WebDAVConfiguration/lockWait``, within 5 to
    /// 60 seconds, so that a lock nobody releases expires while another writer still waits.
    var lockLeaseSeconds: Int {
        let (seconds, _) = configuration.lockWait.components
        return Int(min(max(seconds / 2, 5), 60))
    }

    /// Runs a write under the path's lock (when the configuration uses locks).
    func withPathLock<Result: Sendable>(_ path: RemotePath, _ body: () async throws -> Result) async throws -> Result {
        guard configuration.usesLocks else { return try await body() }
        let name = Hex.encode(Digest.sha256(Data(path.string.utf8)).prefix(16))
        let lockURL = try transport.url(for: [Self.reservedFolder, "locks", name])
        return try await writers.withLock(name) {
            try await ensureLockResource(lockURL, name: name)
            let token = try await acquireLock(lockURL, path: path)
            do {
                let result = try await whileRefreshing(lockURL, token: token, body)
                await releaseLock(lockURL, token: token)
                return result
            } catch {
                await releaseLock(lockURL, token: token)
                throw error
            }
        }
    }

    /// Makes the (empty) lock resource once per instance: a LOCK of a missing resource makes a
    /// lock-null resource on Apache, whose lock is lost when it turns into a real file.
    private func ensureLockResource(_ url: URL, name: String) async throws {
        let key = "lock:" + name
        guard !knownFolders.withLock({ $0.contains(key) }) else { return }
        try await ensureReservedFolder("locks")
        guard try await transport.propfind(url, depth: 0, action: "PROPFIND of a lock resource") == nil else {
            knownFolders.withLock { _ = $0.insert(key) }
            return
        }
        let response = try await configuration.retryPolicy.run(.onlyWhenRefused) { _ in
            try await transport.exchange(
                transport.request(.put, url, headers: [("If-None-Match", "*")], body: .bytes(Data())),
                action: "PUT of a lock resource")
        }
        // 412 and 423 (or a 207 with 423 from Apache): another writer made it, or holds it.
        guard response.isSuccess || [207, 412, 423].contains(response.status) else {
            throw WebDAVErrorMapping.error(
                status: response.status, headers: response.headers, body: response.body,
                action: "PUT of a lock resource", secrets: transport.secrets)
        }
        knownFolders.withLock { _ = $0.insert(key) }
    }

    /// Takes the lock, waiting while another writer holds it, up to ``WebDAVConfiguration/lockWait``.
    ///
    /// Every repeat waits first: after a 423 a short random pause that grows to 200-400 ms;
    /// after a LOCK whose answer was lost (it may have been granted, and then expires after
    /// ``lockLeaseSeconds``) or a 409 (the lock folder went away) the retry policy's backoff, at
    /// most ``/Stratus/RetryPolicy/maximumAttempts`` times in a row before that failure is thrown.
    private func acquireLock(_ url: URL, path: RemotePath) async throws -> String {
        let deadline = ContinuousClock.now + configuration.lockWait
        let action = "LOCK for a write of \(path)"
        let policy = configuration.retryPolicy
        var wait = 10
        var failures = 0
        /// Counts a failure that may be repeated, throws it when the policy allows no more or
        /// the wait is over, and otherwise waits the policy's backoff.
        func backOff(after error: ServiceError) async throws {
            failures += 1
            guard failures < policy.maximumAttempts, ContinuousClock.now < deadline else { throw error }
            do {
                try await Task.sleep(for: policy.delay(afterAttempt: failures))
            } catch {
                throw ServiceError(.cancelled, "\(action) was cancelled while waiting to retry.")
            }
        }
        while true {
            try await ensureReservedFolder("locks")
            let request = transport.request(
                WebDAVTransport.lock, url,
                headers: [
                    ("Depth", "0"), ("Timeout", "Second-\(lockLeaseSeconds)"),
                    ("Content-Type", "application/xml; charset=utf-8"),
                ],
                body: .bytes(WebDAVProperties.lockBody), isIdempotent: false
            )
            let response: StratusHTTPResponse
            do {
                response = try await policy.run(.onlyWhenRefused) { _ in
                    try await transport.exchange(request, action: action)
                }
            } catch let error as ServiceError where Repetition.leavesOutcomeUnknown(error) {
                // The lock may have been granted to a request whose answer was lost; it then
                // expires after its lease, and this writer waits for it like for any other.
                try await backOff(after: error)
                continue
            }
            if response.isSuccess, response.status != 207 {
                return try Self.lockToken(response.headers["Lock-Token"], action: action)
            }
            let error =
                response.status == 207
                ? WebDAVErrorMapping.multistatusFailure(response.body, action: action, secrets: transport.secrets)
                : WebDAVErrorMapping.error(
                    status: response.status, headers: response.headers, body: response.body, action: action,
                    secrets: transport.secrets)
            if error.httpStatus == 409 {
                // The lock folder went away (someone deleted .stratus); make it again.
                knownFolders.withLock { $0.removeAll() }
                try await backOff(after: error)
                continue
            }
            if error.httpStatus != 423 {
                if response.status == 405 || response.status == 501 {
                    throw ServiceError(
                        .unsupported,
                        "\(action): the server does not lock (WebDAV class 2); set the remote's option locking=false (preconditions are then best effort).",
                        httpStatus: response.status)
                }
                throw error
            }
            failures = 0
            guard ContinuousClock.now < deadline else {
                throw ServiceError(
                    .timeout, "\(action): another writer held the lock for longer than \(configuration.lockWait).",
                    httpStatus: 423)
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: wait...(2 * wait))))
            wait = min(wait * 2, 200)
        }
    }

    /// The token of a granted lock, from its `Lock-Token` header (`<token>`): it is sent back in
    /// headers (`Lock-Token`, `If`), so one with a control character is refused.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` for a missing or empty token, or
    ///   one with a control character.
    static func lockToken(_ header: String?, action: String) throws -> String {
        guard let header else {
            throw WebDAVErrorMapping.undecodable(action, "a granted lock without a Lock-Token")
        }
        try WebDAVTransport.checkHeaderValue(header, name: "Lock-Token", action: action)
        let token = header.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
        guard !token.isEmpty else {
            throw WebDAVErrorMapping.undecodable(action, "a granted lock with an empty Lock-Token")
        }
        return token
    }

    /// Runs a write while a child task refreshes its lock every third of ``lockLeaseSeconds``
    /// (LOCK with the token in `If` and no body, RFC 4918 9.10.2). A refresh that fails is
    /// logged: the lock then lasts until its lease ends, as it would without refreshes.
    private func whileRefreshing<Result: Sendable>(
        _ url: URL, token: String, _ body: () async throws -> Result
    ) async throws -> Result {
        let lease = lockLeaseSeconds
        let request = transport.request(
            WebDAVTransport.lock, url, headers: [("If", "(<\(token)>)"), ("Timeout", "Second-\(lease)")])
        let transport = self.transport
        let logger = self.logger
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    do {
                        try await Task.sleep(for: .seconds(lease) / 3)
                        _ = try await transport.send(request, action: "LOCK refresh", repetition: .safe)
                    } catch {
                        if Task.isCancelled { return }
                        logger.warning(
                            "A write lock could not be refreshed; it expires after its lease",
                            metadata: ["error": "\(error)"])
                    }
                }
            }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    /// Releases a lock, even when the task was cancelled (a lock left behind would make other
    /// writers wait until it expires). A failure only costs that wait, so it is logged.
    private func releaseLock(_ url: URL, token: String) async {
        let request = transport.request(WebDAVTransport.unlock, url, headers: [("Lock-Token", "<\(token)>")])
        let transport = self.transport
        let logger = self.logger
        await Task {
            do {
                _ = try await transport.send(request, action: "UNLOCK", repetition: .safe)
            } catch {
                logger.warning(
                    "A write lock could not be released; it expires on its own", metadata: ["error": "\(error)"])
            }
        }.value
    }

    /// Creates `.stratus/<name>/` once per instance.
    func ensureReservedFolder(_ name: String) async throws {
        let key = Self.reservedFolder + "/" + name
        guard !knownFolders.withLock({ $0.contains(key) }) else { return }
        try await makeFolders([Self.reservedFolder, name])
        knownFolders.withLock { _ = $0.insert(key) }
    }

    /// Creates the folders of a path; a folder that exists (or appears meanwhile) is success,
    /// a file in the way is a conflict.
    func ensureFolders(_ folder: RemotePath) async throws {
        try await makeFolders(folder.components)
    }

    /// Creates a folder and any missing folders above it, bottom up: MKCOL of the folder
    /// itself first, and of its parent only when the server answers that the parent is missing
    /// (409, as RFC 4918 says; 404 from some servers). A folder whose parents exist costs one
    /// MKCOL, one that exists already a MKCOL and a PROPFIND, whatever its depth; the root
    /// collection itself is made when it is missing too (a new remote).
    private func makeFolders(_ components: [String]) async throws {
        // Up: the deepest folder whose MKCOL did not find its parent missing.
        var made = components.count
        while try await makeFolder(Array(components.prefix(made))) == .parentMissing {
            made -= 1
        }
        // Down: the folders below it, whose parents now exist.
        for depth in stride(from: made + 1, through: components.count, by: 1) {
            let folder = components.prefix(depth)
            if try await makeFolder(Array(folder)) == .parentMissing {
                throw ServiceError(
                    .conflict,
                    "The server refused to make \(folder.joined(separator: "/")) as if the folder above it were missing, though it was there a moment before (it may have been deleted meanwhile)."
                )
            }
        }
    }

    private func exchangeMKCOL(_ url: URL, action: String) async throws -> StratusHTTPResponse {
        try await configuration.retryPolicy.run(.onlyWhenRefused) { _ in
            try await transport.exchange(
                transport.request(WebDAVTransport.mkcol, url, isIdempotent: false), action: action)
        }
    }

    /// What a MKCOL of one folder found.
    private enum FolderOutcome {
        /// The folder is there: made now, or there already.
        case present
        /// The server answered that the folder's parent is missing (never for the root).
        case parentMissing
    }

    /// MKCOL of one folder: 201 is made; 405 (Apache, WsgiDAV) or 201 again (rclone) means it
    /// is there already; 409 (or 404) below the root means its parent is missing. Any other
    /// refusal is then checked with PROPFIND: a folder there is success (it appeared
    /// meanwhile), a file there is a conflict.
    private func makeFolder(_ components: [String]) async throws -> FolderOutcome {
        let label = components.isEmpty ? "the root" : components.joined(separator: "/")
        let url = try transport.url(for: components, isFolder: true)
        let action = "MKCOL of \(label)"
        // rclone locks a path for the length of each write to it, so MKCOLs of one folder that
        // meet answer 423 for a moment: wait for the other one like for a write lock.
        let deadline = ContinuousClock.now + configuration.lockWait
        var response = try await exchangeMKCOL(url, action: action)
        while response.status == 423, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(Int.random(in: 10...50)))
            response = try await exchangeMKCOL(url, action: action)
        }
        if response.status == 201 || response.status == 200 { return .present }
        if response.status == 423 || response.status == 429 || response.status == 503 {
            throw WebDAVErrorMapping.error(
                status: response.status, headers: response.headers, body: response.body, action: action,
                secrets: transport.secrets)
        }
        if !components.isEmpty, response.status == 409 || response.status == 404 { return .parentMissing }
        // Without the trailing slash: Apache answers 400 for `file/`.
        let plain = try transport.url(for: components)
        if let existing = try await transport.propfind(plain, depth: 0, action: "PROPFIND of \(label)")?.first {
            if existing.isCollection { return .present }
            throw ServiceError(
                .conflict, "\(label) is a file, so nothing can be written below it.", httpStatus: response.status)
        }
        if response.status == 207 {
            throw WebDAVErrorMapping.multistatusFailure(response.body, action: action, secrets: transport.secrets)
        }
        throw WebDAVErrorMapping.error(
            status: response.status, headers: response.headers, body: response.body, action: action,
            secrets: transport.secrets)
    }
}
