import Foundation
public import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP
import Synchronization

/// Which write preconditions an S3 server honours on a bucket: measured on the bucket by
/// ``S3Service/conditionSupport()`` (``S3Configuration/ConditionalWriteMode/detect``), or taken
/// on trust from ``S3Configuration/conditionalWrites``.
///
/// S3-compatible servers differ here, and a server that does not honour a condition usually
/// accepts the write anyway, without a word. Measured by the adapter's tests:
///
/// | Server | `If-None-Match: *` (PutObject) | `If-Match` (PutObject) | on CompleteMultipartUpload | `If-Match` (DeleteObject) |
/// |---|---|---|---|---|
/// | AWS S3 | honoured | honoured, quoted | both honoured | honoured |
/// | moto 5 | honoured | honoured, quoted | `If-None-Match` only | honoured |
/// | Ceph 16 RGW, unversioned bucket | honoured | honoured, **unquoted** only | ignored | ignored |
/// | Ceph 16 RGW, versioned bucket | **ignored** | always refused | ignored | ignored |
///
/// The adapter sends a condition only where it is honoured, and keeps a conditional upload
/// that the server would not check on `CompleteMultipartUpload` to one `PutObject` (up to
/// 5 GiB). ``conditionalWrites`` is what ``S3Service/capabilities`` declares.
public struct S3ConditionSupport: Sendable, Hashable, CustomStringConvertible {
    /// How an ETag is written in `If-Match`.
    public enum ETagForm: String, Sendable, Hashable {
        /// `"0123…"`, in quotes, as HTTP writes entity tags (AWS S3, moto).
        case quoted
        /// `0123…` without quotes: Ceph 16's gateway compares the header with the bare ETag
        /// it stores, so a quoted one never matches.
        case unquoted
    }

    /// `PutObject` with `If-None-Match: *` is refused when the key exists.
    public var putIfNoneMatch: Bool
    /// The form in which `PutObject` honours `If-Match` (the current ETag passes, another is
    /// refused), or `nil` when it does not.
    public var putIfMatch: ETagForm?
    /// `CompleteMultipartUpload` with `If-None-Match: *` is refused when the key exists.
    public var completeIfNoneMatch: Bool
    /// `CompleteMultipartUpload` with a stale `If-Match` is refused.
    public var completeIfMatch: Bool
    /// `DeleteObject` with a stale `If-Match` is refused. Without it, a delete with
    /// ``/Stratus/WritePrecondition/mustMatch(_:)`` is checked by `HeadObject` just before; on a
    /// versioned bucket the adapter then checks the version below its delete marker and takes
    /// the marker away again (a ``/Stratus/ServiceError/Code/conflict``) when it is not the one
    /// that was checked.
    public var deleteIfMatch: Bool

    /// Creates a description.
    public init(
        putIfNoneMatch: Bool, putIfMatch: ETagForm?, completeIfNoneMatch: Bool, completeIfMatch: Bool,
        deleteIfMatch: Bool
    ) {
        self.putIfNoneMatch = putIfNoneMatch
        self.putIfMatch = putIfMatch
        self.completeIfNoneMatch = completeIfNoneMatch
        self.completeIfMatch = completeIfMatch
        self.deleteIfMatch = deleteIfMatch
    }

    /// What AWS S3 honours: every condition, with quoted ETags.
    public static let s3 = S3ConditionSupport(
        putIfNoneMatch: true, putIfMatch: .quoted, completeIfNoneMatch: true, completeIfMatch: true,
        deleteIfMatch: true)

    /// Nothing: every precondition is checked by the adapter just before the write.
    public static let none = S3ConditionSupport(
        putIfNoneMatch: false, putIfMatch: nil, completeIfNoneMatch: false, completeIfMatch: false,
        deleteIfMatch: false)

    /// `atomic` when uploads with either precondition are checked by the server in the write
    /// itself (`If-None-Match: *` and `If-Match` on `PutObject`), else `bestEffort`.
    public var conditionalWrites: ServiceCapabilities.ConditionalWrites {
        putIfNoneMatch && putIfMatch != nil ? .atomic : .bestEffort
    }

    /// The `If-Match` value for an ETag (given without quotes), or `nil` when `If-Match` is not
    /// honoured.
    func ifMatch(_ etag: String) -> String? {
        switch putIfMatch {
        case .quoted?: "\"\(etag)\""
        case .unquoted?: etag
        case nil: nil
        }
    }

    /// The `If-Match` value of a `DeleteObject`, or `nil` when the server ignores it there.
    func deleteIfMatch(_ etag: String) -> String? {
        guard deleteIfMatch else { return nil }
        return putIfMatch == .unquoted ? etag : "\"\(etag)\""
    }

    /// Whether `CompleteMultipartUpload` checks a condition header.
    func completionHonours(_ header: String) -> Bool {
        header.lowercased() == "if-none-match" ? completeIfNoneMatch : completeIfMatch
    }

    /// One line: what is honoured, for logs and test messages.
    public var description: String {
        let put =
            "PutObject If-None-Match \(putIfNoneMatch ? "honoured" : "ignored"), If-Match \(putIfMatch.map { "honoured (\($0.rawValue))" } ?? "not honoured")"
        let complete =
            "CompleteMultipartUpload If-None-Match \(completeIfNoneMatch ? "honoured" : "ignored"), If-Match \(completeIfMatch ? "honoured" : "ignored")"
        return
            "\(put); \(complete); DeleteObject If-Match \(deleteIfMatch ? "honoured" : "ignored") (\(conditionalWrites.rawValue))"
    }
}

/// The result of detecting a bucket's condition support, shared by the calls that wait for it.
final class S3ConditionDetection: Sendable {
    private enum State {
        case unknown
        case running(Task<S3ConditionSupport, any Error>)
        case known(S3ConditionSupport)
    }

    private let state = Mutex<State>(.unknown)

    /// The result, once one detection has succeeded.
    var known: S3ConditionSupport? {
        state.withLock {
            if case .known(let support) = $0 { return support }
            return nil
        }
    }

    /// The result, running `detect` when no detection has succeeded yet and none is running;
    /// a failed detection is tried again by the next call.
    func value(_ detect: @escaping @Sendable () async throws -> S3ConditionSupport) async throws
        -> S3ConditionSupport
    {
        enum Next {
            case known(S3ConditionSupport)
            case wait(Task<S3ConditionSupport, any Error>)
        }
        let next: Next = state.withLock { state in
            switch state {
            case .known(let support): return .known(support)
            case .running(let task): return .wait(task)
            case .unknown:
                let task = Task { try await detect() }
                state = .running(task)
                return .wait(task)
            }
        }
        switch next {
        case .known(let support):
            return support
        case .wait(let task):
            do {
                let support = try await task.value
                state.withLock { $0 = .known(support) }
                return support
            } catch {
                state.withLock {
                    if case .running(let current) = $0, current == task { $0 = .unknown }
                }
                throw error
            }
        }
    }
}

/// Measuring what the server honours, on a key of the adapter's own.
extension S3Service {
    /// What the server honours on this bucket, measured once per service (the first
    /// conditional write or delete also measures it) when
    /// ``S3Configuration/conditionalWrites`` is ``S3Configuration/ConditionalWriteMode/detect``;
    /// with ``S3Configuration/ConditionalWriteMode/atomic`` S3's own
    /// (``S3ConditionSupport/s3``), with ``S3Configuration/ConditionalWriteMode/bestEffort``
    /// nothing (``S3ConditionSupport/none``).
    ///
    /// The measurement writes a few bytes to `<root>/.stratus/probes/` several times, with and
    /// without conditions (about 30 requests), and removes every version it made. Until it has
    /// run, ``capabilities`` declares `bestEffort` under `detect`: nothing is proven yet. Call
    /// this after creating the service to have ``capabilities`` say what the server does.
    /// - Returns: What the server honours.
    /// - Throws: ``/Stratus/ServiceError`` when the bucket cannot be reached or written.
    public func conditionSupport() async throws -> S3ConditionSupport {
        try await guarded { try await resolvedConditionSupport() }
    }

    /// ``conditionSupport()`` without the error guard.
    func resolvedConditionSupport() async throws -> S3ConditionSupport {
        switch configuration.conditionalWrites {
        case .atomic: return .s3
        case .bestEffort: return .none
        case .detect: break
        }
        if let known = conditionDetection.known { return known }
        try await ensureVersioning()
        return try await conditionDetection.value { [self] in try await detectConditionSupport() }
    }

    /// What a conditional probe write came to.
    enum ProbeOutcome: Equatable {
        /// Written; the new ETag (without quotes).
        case written(String)
        /// Refused by its condition (412).
        case refused
        /// Refused as a request the server does not take (400, 501): the condition is not
        /// honoured.
        case rejected

        /// Whether the write went through.
        var isWritten: Bool {
            if case .written = self { return true }
            return false
        }
    }

    /// An ETag no object has.
    static let probeStaleETag = "0123456789abcdef0123456789abcdef"

    /// Measures what the server honours, on probe keys removed afterwards.
    ///
    /// A condition counts as honoured only when the server both refuses it where it fails and
    /// takes it where it holds: a server that answers 412 to every conditional request would
    /// otherwise be recorded as honouring each one, and every conditional write to it would
    /// then fail as a conflict. So `If-None-Match: *` is also sent to a key that does not exist,
    /// and a stale `If-Match` is followed by the current ETag, on `PutObject`,
    /// `CompleteMultipartUpload` and `DeleteObject` alike.
    func detectConditionSupport() async throws -> S3ConditionSupport {
        let key = reservedKey("probes/conditions-" + UUID().uuidString.lowercased())
        // Beside the probe key, with it as their prefix: keys no request made before.
        let freshPut = key + "-fresh-put"
        let freshCompletion = key + "-fresh-complete"
        let deleted = key + "-delete"
        let keys = [key, freshPut, freshCompletion, deleted]
        var support = S3ConditionSupport.none
        do {
            guard case .written(var etag) = try await probePut(key, "first", condition: nil) else {
                throw ServiceError(.invalidResponse, "The condition probe could not write \(key).")
            }
            switch try await probePut(key, "over an existing key", condition: ("If-None-Match", "*")) {
            case .refused:
                let toFresh = try await probePut(freshPut, "to a new key", condition: ("If-None-Match", "*"))
                if case .written = toFresh { support.putIfNoneMatch = true }
            case .written(let newer): etag = newer
            case .rejected: break
            }
            switch try await probePut(
                key, "with a stale If-Match", condition: ("If-Match", "\"\(Self.probeStaleETag)\""))
            {
            case .refused:
                for form in [S3ConditionSupport.ETagForm.quoted, .unquoted] {
                    let value = form == .quoted ? "\"\(etag)\"" : etag
                    if case .written(let newer) = try await probePut(
                        key, "with the current If-Match, \(form.rawValue)", condition: ("If-Match", value))
                    {
                        support.putIfMatch = form
                        etag = newer
                        break
                    }
                }
            case .written(let newer): etag = newer
            case .rejected: break
            }
            if support.putIfNoneMatch, try await probeCompletion(key, ("If-None-Match", "*")) == .refused {
                support.completeIfNoneMatch = try await probeCompletion(
                    freshCompletion, ("If-None-Match", "*")
                ).isWritten
            }
            if let stale = support.ifMatch(Self.probeStaleETag), let current = support.ifMatch(etag),
                try await probeCompletion(key, ("If-Match", stale)) == .refused
            {
                support.completeIfMatch = try await probeCompletion(key, ("If-Match", current)).isWritten
            }
            support.deleteIfMatch = try await probeDeleteHonoured(deleted, form: support.putIfMatch ?? .quoted)
        } catch {
            await removeProbes(keys)
            throw error
        }
        await removeProbes(keys)
        logger.debug(
            "Measured the bucket's conditional writes",
            metadata: ["bucket": "\(configuration.bucket)", "support": "\(support)"])
        return support
    }

    /// Sorts a probe request's failure: a refused condition, a request the server does not
    /// take, or an error to throw.
    private func probeOutcome(of error: ServiceError) throws -> ProbeOutcome {
        if error.code == .conflict || error.httpStatus == 412 { return .refused }
        if error.code == .unsupported || error.httpStatus == 400 || error.httpStatus == 501 { return .rejected }
        throw error
    }

    /// One small `PutObject` of the probe key.
    private func probePut(_ key: String, _ what: String, condition: (String, String)?) async throws -> ProbeOutcome {
        let data = Data("stratus condition probe: \(what)\n".utf8)
        var headers = [
            ("Content-MD5", Data(Digest.md5(data)).base64EncodedString()), ("Content-Type", "text/plain"),
        ]
        if let condition { headers.append(condition) }
        do {
            let response = try await transport.send(
                S3Transport.Request(
                    method: .put, key: key, headers: headers, body: .bytes(data),
                    payloadHash: Hex.encode(Digest.sha256(data)), action: "PutObject of the condition probe (\(what))"),
                repetition: .onlyWhenRefused
            )
            guard let etag = response.headers["ETag"] else {
                throw S3ErrorMapping.undecodable("PutObject of the condition probe", "the answer has no ETag")
            }
            return .written(S3ObjectDescription.unquoted(etag))
        } catch let error as ServiceError {
            return try probeOutcome(of: error)
        }
    }

    /// A one-part multipart upload of a probe key, completed with a condition.
    /// - Returns: What the completion came to; `written` with the new ETag (empty when the
    ///   answer names none).
    private func probeCompletion(_ key: String, _ condition: (String, String)) async throws -> ProbeOutcome {
        let what = "CompleteMultipartUpload of the condition probe with \(condition.0)"
        let created = try await transport.sendXML(
            S3Transport.Request(
                method: .post, key: key, query: [("uploads", "")], headers: [("Content-Type", "text/plain")],
                action: "CreateMultipartUpload of the condition probe"),
            repetition: .safe
        )
        guard let uploadID = created.value("UploadId"), !uploadID.isEmpty else {
            throw S3ErrorMapping.undecodable(
                "CreateMultipartUpload of the condition probe", "the answer has no UploadId")
        }
        let part = Data("stratus condition probe part\n".utf8)
        do {
            _ = try await transport.send(
                S3Transport.Request(
                    method: .put, key: key, query: [("partNumber", "1"), ("uploadId", uploadID)],
                    headers: [("Content-MD5", Data(Digest.md5(part)).base64EncodedString())], body: .bytes(part),
                    payloadHash: Hex.encode(Digest.sha256(part)), action: "UploadPart of the condition probe"),
                repetition: .safe
            )
            let body = Data(
                ("<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Part><PartNumber>1</PartNumber>"
                    + "<ETag>\"\(Hex.encode(Digest.md5(part)))\"</ETag></Part></CompleteMultipartUpload>").utf8)
            let response = try await transport.send(
                S3Transport.Request(
                    method: .post, key: key, query: [("uploadId", uploadID)],
                    headers: [condition, ("Content-Type", "application/xml")], body: .bytes(body),
                    payloadHash: Hex.encode(Digest.sha256(body)), action: what),
                repetition: .onlyWhenRefused
            )
            let document = try? XMLTree.parse(response.body)
            if let document, document.name == "Error" {
                let error = S3ErrorMapping.error(
                    status: 500, body: response.body, action: what, secrets: transport.secrets)
                try? await abortUpload(key: key, uploadID: uploadID)
                return try probeOutcome(of: error)
            }
            return .written(document?.value("ETag").map(S3ObjectDescription.unquoted) ?? "")
        } catch let error as ServiceError {
            try? await abortUpload(key: key, uploadID: uploadID)
            return try probeOutcome(of: error)
        }
    }

    /// Whether `DeleteObject` honours `If-Match` on a probe key of its own: written first, then
    /// a delete with a stale ETag must be refused and one with the current ETag must go through.
    /// - Parameter form: How the ETag is written in `If-Match` (as `PutObject` takes it).
    private func probeDeleteHonoured(_ key: String, form: S3ConditionSupport.ETagForm) async throws -> Bool {
        guard case .written(let etag) = try await probePut(key, "to be deleted", condition: nil) else {
            throw ServiceError(.invalidResponse, "The condition probe could not write \(key).")
        }
        func value(_ tag: String) -> String { form == .unquoted ? tag : "\"\(tag)\"" }
        guard try await probeDelete(key, ("If-Match", value(Self.probeStaleETag))) == .refused else { return false }
        return try await probeDelete(key, ("If-Match", value(etag))).isWritten
    }

    /// A `DeleteObject` of a probe key with a condition.
    /// - Returns: What it came to (`written` with no ETag when it went through).
    private func probeDelete(_ key: String, _ condition: (String, String)) async throws -> ProbeOutcome {
        do {
            _ = try await transport.send(
                S3Transport.Request(
                    method: .delete, key: key, headers: [condition],
                    action: "DeleteObject of the condition probe with \(condition.0)"),
                repetition: .onlyWhenRefused
            )
            return .written("")
        } catch let error as ServiceError {
            return try probeOutcome(of: error)
        }
    }

    /// Removes the probe keys and, when the bucket keeps versions, every version and delete
    /// marker of them (they share the first key as their prefix). A failure is logged: the keys
    /// are the adapter's own and never listed.
    private func removeProbes(_ keys: [String]) async {
        guard let prefix = keys.first else { return }
        do {
            if configuration.versioning == .off {
                for key in keys {
                    _ = try await transport.send(
                        S3Transport.Request(method: .delete, key: key, action: "DeleteObject of the condition probe"),
                        repetition: .safe)
                }
                return
            }
            let probes = Set(keys)
            for entry in try await listVersions(prefix: prefix) where probes.contains(entry.key) {
                _ = try await transport.send(
                    S3Transport.Request(
                        method: .delete, key: entry.key, query: [("versionId", entry.versionID)],
                        action: "DeleteObject of a version of the condition probe"),
                    repetition: .safe
                )
            }
        } catch {
            logger.warning(
                "Could not remove the condition probe", metadata: ["key": "\(prefix)", "error": "\(error)"])
        }
    }
}
