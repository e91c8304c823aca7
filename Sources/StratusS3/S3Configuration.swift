public import Foundation
public import Stratus

/// Where an S3 remote lives and how the adapter talks to it.
public struct S3Configuration: Sendable {
    /// How the bucket appears in request URLs.
    public enum Addressing: String, Sendable, Hashable {
        /// `https://endpoint/bucket/key`: works with every S3-compatible server.
        case path
        /// `https://bucket.endpoint/key`: what AWS prefers for new buckets.
        case virtualHosted = "virtual"
    }

    /// What the adapter does about bucket versioning.
    public enum Versioning: String, Sendable, Hashable {
        /// The bucket keeps versions: ``/Stratus/Service/versions(of:)``, restore and the change
        /// feed work; the adapter checks once and reports `unsupported` if versioning is off.
        case required = "on"
        /// As ``required``, and the adapter turns versioning on (`PutBucketVersioning`) the first
        /// time it is used, when it is not on yet.
        case enable
        /// The bucket keeps no versions: versions, restore and the change feed are unavailable,
        /// and a file's version is its ETag.
        case off
    }

    /// How the adapter learns which write preconditions the server honours (see
    /// ``S3ConditionSupport``).
    public enum ConditionalWriteMode: String, Sendable, Hashable {
        /// Measure it on the bucket, once per service, before the first conditional write or
        /// delete (or when ``S3Service/conditionSupport()`` is called): `atomic` where the server
        /// checks `If-None-Match: *` and `If-Match` in the write itself, `bestEffort` where it
        /// does not (Ceph 16 on a versioned bucket). The default for an `endpoint` other than
        /// AWS's.
        case detect
        /// Trust the server to honour S3's conditions, quoted ETags and all, on `PutObject`,
        /// `CompleteMultipartUpload` and `DeleteObject`, as AWS S3 does: no measurement. The
        /// default for AWS.
        case atomic
        /// Send no condition: every precondition is checked by `HeadObject` just before the
        /// write, and the capabilities say `bestEffort`. For a server that accepts conditions it
        /// does not honour, where measuring is not wanted.
        case bestEffort = "best_effort"
    }

    /// The smallest part S3 accepts (5 MiB), except for the last part of an upload.
    public static let s3MinimumPartSize: Int64 = 5 * 1_048_576
    /// The largest single `PutObject` S3 accepts (5 GiB).
    public static let s3LargestSingleUpload: Int64 = 5 * 1_073_741_824
    /// The most parts an upload may have.
    public static let maximumPartCount: Int64 = 10_000
    /// The most parts of one upload the adapter sends at once.
    public static let maximumUploadConcurrency = 16

    /// The service endpoint, such as `https://s3.eu-west-1.amazonaws.com` or a local server.
    public var endpoint: URL
    /// The signing region, such as `us-east-1`.
    public var region: String
    /// The bucket.
    public var bucket: String
    /// The key prefix that is the remote's root (no leading or trailing `/`), or empty.
    public var root: String
    /// Path-style or virtual-hosted URLs.
    public var addressing: Addressing
    /// What to do about bucket versioning.
    public var versioning: Versioning
    /// How the adapter learns which write preconditions the server honours.
    public var conditionalWrites: ConditionalWriteMode
    /// Uploads up to this many bytes are one `PutObject`; larger ones are multipart uploads.
    public var singleUploadLimit: Int64
    /// The size of each part of a multipart upload (the last part may be smaller).
    public var partSize: Int64
    /// How many parts of a multipart upload go up at once (1 to
    /// ``maximumUploadConcurrency``); each is streamed from the content while it is sent, so
    /// at most this many are in flight.
    public var uploadConcurrency: Int
    /// Changes per page of ``/Stratus/Service/changes(since:)``.
    public var changePageSize: Int
    /// How far back the change feed looks for versions whose `LastModified` is older than the
    /// newest it has seen (a multipart upload is stamped with the time it began, not ended).
    public var changeLookback: Duration
    /// An unfinished multipart upload of another content to the same key is aborted once it is
    /// this old.
    public var abandonedUploadAge: Duration
    /// How requests are retried.
    public var retryPolicy: RetryPolicy
    /// How ``/Stratus/Service/waitForChanges(after:timeout:)`` polls the emulated feed (each poll lists
    /// the root's versions); 2 to 30 seconds by default.
    public var pollingSchedule: PollingSchedule

    /// Creates a configuration.
    /// - Parameters:
    ///   - endpoint: The endpoint; `https://s3.<region>.amazonaws.com` when `nil`.
    ///   - region: The signing region.
    ///   - bucket: The bucket.
    ///   - root: The key prefix that is the root.
    ///   - addressing: Path-style or virtual-hosted URLs; path-style when `nil` and an endpoint
    ///     is given, virtual-hosted for AWS.
    ///   - versioning: What to do about bucket versioning.
    ///   - conditionalWrites: How the adapter learns which preconditions the server honours;
    ///     ``ConditionalWriteMode/detect`` when an endpoint is given, ``ConditionalWriteMode/atomic``
    ///     for AWS, when `nil`.
    ///   - singleUploadLimit: The largest single `PutObject` (default 8 MiB, at most 5 GiB).
    ///   - partSize: The multipart part size (default 8 MiB).
    ///   - minimumPartSize: The smallest part size allowed; S3's 5 MiB unless a compatible
    ///     server is known to accept less (moto with `S3_UPLOAD_PART_MIN_SIZE`).
    ///   - uploadConcurrency: How many parts of a multipart upload go up at once (default 4,
    ///     1 to ``maximumUploadConcurrency``).
    ///   - changePageSize: Changes per page (default 1000).
    ///   - changeLookback: The change feed's look-back window (default one hour).
    ///   - abandonedUploadAge: When an unfinished upload counts as abandoned (default one day).
    ///   - retryPolicy: How requests are retried.
    ///   - pollingSchedule: How waiting for changes polls (the `poll_interval` option).
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a bad value.
    public init(
        endpoint: URL? = nil,
        region: String = "us-east-1",
        bucket: String,
        root: String = "",
        addressing: Addressing? = nil,
        versioning: Versioning = .required,
        conditionalWrites: ConditionalWriteMode? = nil,
        singleUploadLimit: Int64 = 8 * 1_048_576,
        partSize: Int64 = 8 * 1_048_576,
        minimumPartSize: Int64 = S3Configuration.s3MinimumPartSize,
        uploadConcurrency: Int = 4,
        changePageSize: Int = 1000,
        changeLookback: Duration = .seconds(3600),
        abandonedUploadAge: Duration = .seconds(86_400),
        retryPolicy: RetryPolicy = .standard,
        pollingSchedule: PollingSchedule = PollingSchedule()
    ) throws {
        guard !region.isEmpty, region.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw ServiceError(
                .invalidConfiguration,
                "The S3 region \(region.debugDescription) is not a region name such as us-east-1.")
        }
        guard S3Configuration.isBucketName(bucket) else {
            throw ServiceError(
                .invalidConfiguration,
                "\(bucket.debugDescription) is not an S3 bucket name (3 to 63 lower-case letters, digits, '.' and '-')."
            )
        }
        let resolvedEndpoint = endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")
        guard let resolvedEndpoint, let scheme = resolvedEndpoint.scheme?.lowercased(),
            scheme == "http" || scheme == "https", resolvedEndpoint.host != nil
        else {
            throw ServiceError(.invalidConfiguration, "The S3 endpoint must be an http or https URL with a host.")
        }
        guard partSize >= minimumPartSize, minimumPartSize > 0 else {
            throw ServiceError(
                .invalidConfiguration,
                "The S3 part size \(partSize) is below the smallest the server accepts (\(minimumPartSize) bytes).")
        }
        guard singleUploadLimit >= 0, singleUploadLimit <= S3Configuration.s3LargestSingleUpload else {
            throw ServiceError(
                .invalidConfiguration, "The single upload limit must be between 0 and 5 GiB, not \(singleUploadLimit).")
        }
        guard (1...S3Configuration.maximumUploadConcurrency).contains(uploadConcurrency) else {
            throw ServiceError(
                .invalidConfiguration,
                "The S3 upload concurrency (upload_concurrency) must be between 1 and \(S3Configuration.maximumUploadConcurrency), not \(uploadConcurrency)."
            )
        }
        guard changePageSize > 0 else {
            throw ServiceError(.invalidConfiguration, "The change page size must be at least 1.")
        }
        let trimmedRoot = root.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        if !trimmedRoot.isEmpty {
            do {
                _ = try RemotePath(trimmedRoot)
            } catch {
                throw ServiceError(
                    .invalidConfiguration, "The S3 root \(root.debugDescription) is not a valid key prefix.")
            }
        }
        self.endpoint = resolvedEndpoint
        self.region = region
        self.bucket = bucket
        self.root = trimmedRoot
        self.addressing = addressing ?? (endpoint == nil ? .virtualHosted : .path)
        self.versioning = versioning
        self.conditionalWrites = conditionalWrites ?? (endpoint == nil ? .atomic : .detect)
        self.singleUploadLimit = singleUploadLimit
        self.partSize = partSize
        self.uploadConcurrency = uploadConcurrency
        self.changePageSize = changePageSize
        self.changeLookback = changeLookback
        self.abandonedUploadAge = abandonedUploadAge
        self.retryPolicy = retryPolicy
        self.pollingSchedule = pollingSchedule
    }

    /// Whether a name follows S3's bucket naming rules.
    static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        let allowed = bytes.allSatisfy {
            (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "-")
        }
        let alphanumeric: (UInt8) -> Bool = { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
        guard let first = bytes.first, let last = bytes.last else { return false }
        return allowed && alphanumeric(first) && alphanumeric(last)
    }
}
