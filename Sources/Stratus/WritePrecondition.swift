/// A condition a write or delete needs to hold on the remote file, checked by the service.
///
/// When the condition does not hold, the call throws ``ServiceError/Code/conflict`` and changes
/// nothing. How strictly a provider enforces it is in
/// ``ServiceCapabilities/conditionalWrites``.
public enum WritePrecondition: Hashable, Sendable, Codable {
    /// Write whatever is there.
    case none
    /// Write only if no file exists at the path.
    case mustNotExist
    /// Write only if the file's current version is this one (compare-and-swap).
    case mustMatch(VersionID)
}
