/// A change a ``KeyValueStore`` reports: which keys changed, and why.
public struct KeyValueChange: Hashable, Sendable {
    /// Why the keys changed.
    public enum Reason: String, Hashable, Sendable {
        /// Another device changed them (or a merge with another device's values did).
        case changedOnAnotherDevice
        /// The first sync of this device brought them.
        case initialSync
        /// A write was refused, or a merge left the store, over a limit; nothing was dropped.
        case quotaExceeded
        /// The remote no longer holds the store (a different account, or removed by hand); this
        /// device's values are written to it again.
        case accountChanged
    }

    /// Why.
    public var reason: Reason
    /// The keys, sorted.
    public var keys: [String]

    /// Creates a change (for tests and for apps that forward changes).
    public init(reason: Reason, keys: [String]) {
        self.reason = reason
        self.keys = keys
    }
}
