/// The safety rails' decisions, apart from any I/O: what a sync does about the remote's store
/// marker, and whether a pull removes too many records. The callers read the inputs and carry
/// out the outcome.
enum SafetyRailDecisions {
    /// What a sync does about the store marker it found.
    enum Identity: Equatable, Sendable {
        /// The marker names the store this device synced with: go on.
        case proceed
        /// This device has not synced with a store yet and the folder names one: remember it.
        case adopt(String)
        /// This device has not synced with a store yet and the folder has no marker (a new
        /// folder, or one written before markers existed): write one.
        case writeMarker
        /// The folder lost its marker (`found` is `nil`) or holds another store's: stop before
        /// anything is applied.
        case stop(remembered: String, found: String?)
    }

    /// Decides what a sync does about the store marker.
    /// - Parameters:
    ///   - remembered: The store id this device synced with, if any.
    ///   - found: The store id in the folder's marker, or `nil` when there is no marker.
    static func identity(remembered: String?, found: String?) -> Identity {
        switch (remembered, found) {
        case (nil, nil): .writeMarker
        case (nil, let found?): .adopt(found)
        case (let remembered?, let found) where found == remembered: .proceed
        case (let remembered?, let found): .stop(remembered: remembered, found: found)
        }
    }

    /// Whether removing `removed` of `live` records is a mass deletion: more than `minimum`
    /// records, and more than the share `limit` of the live ones.
    static func isMassDeletion(removed: Int, live: Int, limit: Double, minimum: Int) -> Bool {
        removed > max(0, minimum) && Double(removed) > limit * Double(live)
    }
}
