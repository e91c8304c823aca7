/// How a ``KeyValueStore`` works: its merge rules, limits and where it keeps its data.
public struct KeyValueConfiguration: Sendable {
    /// The merge rule per key or key prefix; other keys use ``MergeRule/lastWriterWins``.
    public var rules: [KeyRule]
    /// The limits of the store.
    public var limits: KeyValueLimits
    /// The folder on the service for the store's data (shared by all devices of the app).
    /// Default `stratus-kv`.
    public var remoteFolder: String
    /// This device's name; `nil` for a random id kept in the store.
    public var deviceName: String?

    /// Creates a configuration.
    public init(
        rules: [KeyRule] = [], limits: KeyValueLimits = KeyValueLimits(), remoteFolder: String = "stratus-kv",
        deviceName: String? = nil
    ) {
        self.rules = rules
        self.limits = limits
        self.remoteFolder = remoteFolder
        self.deviceName = deviceName
    }
}
