import Foundation
import Stratus
import StratusAdapterKit
import Synchronization

/// One device's way to the service in an adversarial run: a ``Stratus/Service`` in front of the
/// shared one that injects the current ``FaultWeather``'s faults, drawn from a seeded generator,
/// and can cut the device off.
///
/// It injects what only a device sees (a change page read twice, an expired change token, a
/// document that answers 404, a listing that leaves a document out, being offline) always, and the wire faults (late answers,
/// 5xx, 429, lost answers) only when the backend has no fault rules of its own
/// (``handlesWireFaults``). A change page read twice is checked: every deletion the first read
/// reported must still be there (``impurePages``).
public final class AdversarialService: ForwardingService {
    private struct State {
        var weather = FaultWeather.calm
        var offline = false
        var random: SeededGenerator
        var injected: [String: Int] = [:]
        var impurePages: [String] = []
        var documentDeletions: [String] = []
    }

    /// The shared service.
    public let base: any Service
    /// Whether this service injects the wire faults itself (the backend has no fault rules).
    public let handlesWireFaults: Bool
    /// Where the documents of the synced records live (`stratus-sync/records/`), whose
    /// downloads and listings the document faults aim at.
    public let recordsFolder: String
    private let state: Mutex<State>

    /// Wraps the shared service for one device.
    /// - Parameters:
    ///   - base: The shared service.
    ///   - seed: The seed of this device's fault draws.
    ///   - handlesWireFaults: Whether to inject late answers, 5xx, 429 and lost answers here.
    ///   - recordsFolder: The path prefix of record documents.
    public init(
        _ base: any Service, seed: UInt64, handlesWireFaults: Bool, recordsFolder: String = "stratus-sync/records/"
    ) {
        self.base = base
        self.handlesWireFaults = handlesWireFaults
        self.recordsFolder = recordsFolder
        state = Mutex(State(random: SeededGenerator(seed: seed)))
    }

    /// The weather from now on.
    public var weather: FaultWeather {
        get { state.withLock { $0.weather } }
        set { state.withLock { $0.weather = newValue } }
    }

    /// Whether every call fails as a device without a network would.
    public var isOffline: Bool {
        get { state.withLock { $0.offline } }
        set { state.withLock { $0.offline = newValue } }
    }

    /// The faults injected so far, by kind.
    public var injected: [String: Int] { state.withLock { $0.injected } }

    /// Change pages that, read a second time with the same token, lost a deletion: one line each.
    public var impurePages: [String] { state.withLock { $0.impurePages } }

    /// The record documents a change page reported deleted, in order. The sync layer never
    /// deletes a document (a delete writes a tombstone), so in a run where nobody removes one
    /// by hand each is a phantom.
    public var documentDeletions: [String] { state.withLock { $0.documentDeletions } }

    /// The capabilities of the shared service.
    public var capabilities: ServiceCapabilities { base.capabilities }

    /// Draws whether a fault of a kind strikes now, counting it when it does.
    private func strikes(_ kind: String, _ chance: KeyPath<FaultWeather, Double>) -> Bool {
        state.withLock { state in
            let probability = state.weather[keyPath: chance]
            guard probability > 0, state.random.chance(probability) else { return false }
            state.injected[kind, default: 0] += 1
            return true
        }
    }

    private func count(_ kind: String) {
        state.withLock { $0.injected[kind, default: 0] += 1 }
    }

    /// Fails the call when offline, or with a drawn 5xx or 429 when this service injects wire faults.
    public func willForward(_ call: ServiceCall) async throws {
        if isOffline {
            count("offline")
            throw ServiceError(.network, "The device is offline (simulated).")
        }
        guard handlesWireFaults else { return }
        if strikes("5xx", \.serverError) {
            throw ServiceError(.server, "Injected 503.", httpStatus: 503)
        }
        if strikes("429", \.rateLimit) {
            throw ServiceError(.rateLimited, "Injected 429.", httpStatus: 429, retryAfter: .milliseconds(50))
        }
    }

    /// Holds a request or its answer back when a late call of that kind strikes (wire faults
    /// only): before the call when the weather holds requests, else after it.
    private func maybeLate(_ chance: KeyPath<FaultWeather, Double>, before: Bool) async throws {
        let weather = weather
        guard handlesWireFaults, weather.holdsRequests == before,
            strikes(chance == \.lookupDelay ? "late lookup" : "late commit", chance)
        else { return }
        try await Task.sleep(for: .milliseconds(weather.delayMilliseconds))
    }

    /// Loses a write's answer after the write was carried out, when that strikes (wire faults only).
    private func maybeLoseAnswer() throws {
        if handlesWireFaults, strikes("lost answer", \.lostAnswer) {
            throw ServiceError(.network, "The answer was lost after the server carried out the request (injected).")
        }
    }

    private func isDocument(_ path: RemotePath) -> Bool {
        path.description.contains(recordsFolder) && path.description.hasSuffix(".json")
    }

    /// Looks the file up; the answer may come late.
    public func metadata(of path: RemotePath) async throws -> RemoteFile {
        try await willForward(.metadata(path))
        try await maybeLate(\.lookupDelay, before: true)
        let file = try await base.metadata(of: path)
        try await maybeLate(\.lookupDelay, before: false)
        return file
    }

    /// Lists the folder; the answer may come late, or leave out one record document.
    public func list(_ folder: RemotePath) async throws -> [RemoteFile] {
        try await willForward(.list(folder))
        try await maybeLate(\.lookupDelay, before: true)
        var files = try await base.list(folder)
        try await maybeLate(\.lookupDelay, before: false)
        if let index = files.firstIndex(where: { isDocument($0.path) }), strikes("listing omission", \.listingOmission)
        {
            files.remove(at: index)
        }
        return files
    }

    /// Uploads; the answer may come late or be lost after the upload was done.
    public func upload(from source: UploadSource, to path: RemotePath, options: UploadOptions) async throws
        -> RemoteFile
    {
        try await willForward(.upload(path, options))
        try await maybeLate(\.commitDelay, before: true)
        let file = try await base.upload(from: source, to: path, options: options)
        try await maybeLate(\.commitDelay, before: false)
        try maybeLoseAnswer()
        return file
    }

    /// Downloads; a record document may answer 404 although it is there.
    public func download(_ path: RemotePath, version: VersionID?, to destination: URL, options: DownloadOptions)
        async throws -> RemoteFile
    {
        try await willForward(.download(path, version: version))
        if isDocument(path), strikes("404 download", \.download404) {
            throw ServiceError(.notFound, "\(path) was not found (injected 404).", httpStatus: 404)
        }
        return try await base.download(path, version: version, to: destination, options: options)
    }

    /// Deletes; the answer may be lost after the delete was done.
    public func delete(_ path: RemotePath, precondition: WritePrecondition) async throws {
        try await willForward(.delete(path, precondition: precondition))
        try await base.delete(path, precondition: precondition)
        try maybeLoseAnswer()
    }

    /// Reads a change page; when a re-read strikes, the page is read, thrown away as if the
    /// device failed before saving its token, and read again, and the two reads are compared.
    public func changes(since token: ChangeToken) async throws -> ChangePage {
        try await willForward(.changes(since: token))
        if strikes("token expiry", \.tokenExpiry) {
            throw ServiceError(.invalidChangeToken, "The change token expired (injected).", httpStatus: 410)
        }
        guard strikes("feed re-read", \.feedReread) else { return noted(try await base.changes(since: token)) }
        let first = try await base.changes(since: token)
        let second = try await base.changes(since: token)
        // Only a complete second read must hold every deletion of the first: a path that
        // changed again meanwhile may move to a later page of an incomplete one.
        if !second.hasMore {
            let seen = Set(second.changes.map(\.path))
            let dropped = first.changes.filter { change in
                if case .deleted = change { return !seen.contains(change.path) }
                return false
            }
            if !dropped.isEmpty {
                let line =
                    "re-reading the page of token \(token.rawValue.prefix(40)) lost \(dropped.count) deletion(s): \(dropped.prefix(3).map(\.path.description))"
                state.withLock { $0.impurePages.append(line) }
            }
        }
        return noted(second)
    }

    /// Notes the record documents a page reports deleted.
    private func noted(_ page: ChangePage) -> ChangePage {
        let deleted = page.changes.compactMap { change -> String? in
            guard case .deleted(let path) = change, isDocument(path) else { return nil }
            return path.description
        }
        if !deleted.isEmpty { state.withLock { $0.documentDeletions += deleted } }
        return page
    }
}
