/// What a service can do, and the limits it works within, so callers and the contract suite can
/// adapt without knowing which provider is behind a ``Service``.
public struct ServiceCapabilities: Hashable, Sendable {
    /// How a service enforces a ``WritePrecondition``.
    public enum ConditionalWrites: String, Hashable, Sendable {
        /// The provider checks and writes in one step; no other writer can slip in between.
        case atomic
        /// The adapter checks just before writing; a writer can slip into the short window
        /// between check and write. The adapter's documentation names that window.
        case bestEffort
        /// Preconditions other than ``WritePrecondition/none`` are refused with
        /// ``ServiceError/Code/unsupported``.
        case unsupported
    }

    /// How a service provides its change feed, and so what the feed promises.
    ///
    /// The two kinds of feed differ in what a reader can learn between two calls of
    /// ``Service/changes(since:)``:
    ///
    /// - A ``native`` feed reports **every change**: a file created and deleted between two
    ///   polls appears in the feed (its upload, then its deletion), and changes come in the order
    ///   they happened.
    /// - An ``emulated`` feed reports **the net change** between the token's state and now: each
    ///   file that exists now and differs from the token's state is reported at its current
    ///   version, each file that existed then and is gone now is reported deleted, and a file
    ///   created and deleted between two polls may not appear at all.
    ///
    /// Either way, applying the reported changes in order to the state at the token gives the
    /// state now. The contract suite checks the promise of the kind a service declares.
    public enum ChangeFeed: String, Hashable, Sendable {
        /// The provider keeps the change log, and the feed reports every change, in order: a
        /// file created and deleted between two polls appears as an upload and then a deletion.
        case native
        /// The adapter derives changes itself (for example by comparing listings), and the feed
        /// reports the net change since the token: a file created and deleted between two polls
        /// may be missing, and a file written several times may appear once, at its latest
        /// version.
        case emulated
        /// There is no change feed; the calls throw ``ServiceError/Code/unsupported``.
        case unavailable
    }

    /// The algorithm of ``RemoteFile/contentHash``.
    public var hashAlgorithm: HashAlgorithm
    /// The largest upload sent in one request, in bytes; larger uploads are sent in chunks when
    /// ``supportsChunkedUpload`` is `true`, and refused with
    /// ``ServiceError/Code/payloadTooLarge`` when it is `false`.
    public var largestSingleUpload: Int64
    /// The size of each chunk of a chunked upload, in bytes. When ``supportsChunkedUpload`` is
    /// `false`, there are no chunks and the value has no meaning for uploads.
    public var chunkSize: Int64
    /// Whether uploads above ``largestSingleUpload`` are sent in chunks (a resumable or
    /// multipart session). `false` declares honestly that every upload is sent in one request:
    /// content up to ``largestSingleUpload`` is uploaded whole, anything larger is refused with
    /// ``ServiceError/Code/payloadTooLarge`` (use `Int64.max` when the provider sets no limit),
    /// and the contract suite skips its chunk-boundary checks. The default is `true`.
    public var supportsChunkedUpload: Bool
    /// How preconditions are enforced.
    public var conditionalWrites: ConditionalWrites
    /// Whether ``Service/versions(of:)`` and ``Service/restore(_:to:)`` work.
    public var supportsVersions: Bool
    /// How the change feed is provided.
    public var changeFeed: ChangeFeed
    /// Whether custom string metadata is kept.
    public var supportsCustomMetadata: Bool
    /// Which paths the provider accepts and when two paths name the same file.
    public var pathRules: PathRules
    /// How ``Service/waitForChanges(after:timeout:)`` waits, and how soon it wakes after a
    /// change.
    public var changeWaiting: ChangeWaiting

    /// Creates a capability descriptor.
    ///
    /// `supportsChunkedUpload` defaults to `true`, the behaviour of an adapter that sends large
    /// uploads in chunks of `chunkSize`. `changeWaiting` defaults to polling on the default
    /// ``PollingSchedule`` (``ChangeWaiting/unavailable`` without a change feed).
    public init(
        hashAlgorithm: HashAlgorithm,
        largestSingleUpload: Int64,
        chunkSize: Int64,
        conditionalWrites: ConditionalWrites,
        supportsVersions: Bool,
        changeFeed: ChangeFeed,
        supportsCustomMetadata: Bool,
        pathRules: PathRules,
        supportsChunkedUpload: Bool = true,
        changeWaiting: ChangeWaiting? = nil
    ) {
        self.hashAlgorithm = hashAlgorithm
        self.largestSingleUpload = largestSingleUpload
        self.chunkSize = chunkSize
        self.conditionalWrites = conditionalWrites
        self.supportsVersions = supportsVersions
        self.changeFeed = changeFeed
        self.supportsCustomMetadata = supportsCustomMetadata
        self.pathRules = pathRules
        self.supportsChunkedUpload = supportsChunkedUpload
        self.changeWaiting = changeWaiting ?? (changeFeed == .unavailable ? .unavailable : .polling())
    }
}

/// The rules a provider applies to paths.
public struct PathRules: Hashable, Sendable {
    /// Whether `Save.json` and `save.json` are two files (`true`) or one (`false`).
    public var isCaseSensitive: Bool
    /// Characters a component may not contain, beyond `/`, NUL and control characters, which
    /// no service accepts.
    public var forbiddenCharacters: Set<Character>
    /// The longest component in UTF-8 bytes, when the provider has a limit.
    public var maximumComponentLength: Int?
    /// The longest whole path in UTF-8 bytes, when the provider has a limit.
    public var maximumPathLength: Int?

    /// Creates path rules.
    public init(
        isCaseSensitive: Bool,
        forbiddenCharacters: Set<Character> = [],
        maximumComponentLength: Int? = nil,
        maximumPathLength: Int? = nil
    ) {
        self.isCaseSensitive = isCaseSensitive
        self.forbiddenCharacters = forbiddenCharacters
        self.maximumComponentLength = maximumComponentLength
        self.maximumPathLength = maximumPathLength
    }

    /// Checks a path against these rules.
    /// - Throws: ``ServiceError`` (`invalidPath`) naming the rule the path breaks.
    public func validate(_ path: RemotePath) throws {
        for component in path.components {
            if let bad = component.first(where: { forbiddenCharacters.contains($0) }) {
                throw ServiceError(
                    .invalidPath,
                    "The name \(component.debugDescription) contains \(String(bad).debugDescription), which this service does not allow."
                )
            }
            if let limit = maximumComponentLength, component.utf8.count > limit {
                throw ServiceError(
                    .invalidPath,
                    "The name \(component.debugDescription) is \(component.utf8.count) bytes long; this service allows at most \(limit)."
                )
            }
        }
        if let limit = maximumPathLength, path.string.utf8.count > limit {
            throw ServiceError(
                .invalidPath, "The path is \(path.string.utf8.count) bytes long; this service allows at most \(limit).")
        }
    }
}
