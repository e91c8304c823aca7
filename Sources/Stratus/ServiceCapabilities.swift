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

    /// How a service provides its change feed.
    public enum ChangeFeed: String, Hashable, Sendable {
        /// The provider keeps the change log.
        case native
        /// The adapter derives changes itself (for example by comparing listings).
        case emulated
        /// There is no change feed; the calls throw ``ServiceError/Code/unsupported``.
        case unavailable
    }

    /// The algorithm of ``RemoteFile/contentHash``.
    public var hashAlgorithm: HashAlgorithm
    /// The largest upload sent in one request, in bytes; larger uploads are sent in chunks.
    public var largestSingleUpload: Int64
    /// The size of each chunk of a chunked upload, in bytes.
    public var chunkSize: Int64
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

    /// Creates a capability descriptor.
    public init(
        hashAlgorithm: HashAlgorithm,
        largestSingleUpload: Int64,
        chunkSize: Int64,
        conditionalWrites: ConditionalWrites,
        supportsVersions: Bool,
        changeFeed: ChangeFeed,
        supportsCustomMetadata: Bool,
        pathRules: PathRules
    ) {
        self.hashAlgorithm = hashAlgorithm
        self.largestSingleUpload = largestSingleUpload
        self.chunkSize = chunkSize
        self.conditionalWrites = conditionalWrites
        self.supportsVersions = supportsVersions
        self.changeFeed = changeFeed
        self.supportsCustomMetadata = supportsCustomMetadata
        self.pathRules = pathRules
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
                throw ServiceError(.invalidPath, "The name \(component.debugDescription) contains \(String(bad).debugDescription), which this service does not allow.")
            }
            if let limit = maximumComponentLength, component.utf8.count > limit {
                throw ServiceError(.invalidPath, "The name \(component.debugDescription) is \(component.utf8.count) bytes long; this service allows at most \(limit).")
            }
        }
        if let limit = maximumPathLength, path.string.utf8.count > limit {
            throw ServiceError(.invalidPath, "The path is \(path.string.utf8.count) bytes long; this service allows at most \(limit).")
        }
    }
}
