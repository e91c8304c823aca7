import Foundation
public import Stratus

/// One call of a ``/Stratus/Service`` requirement with its arguments, as a
/// ``ForwardingService`` sees it before passing it on (to count it, log it, or fail it).
public enum ServiceCall: Sendable {
    /// ``/Stratus/Service/metadata(of:)``.
    case metadata(RemotePath)
    /// ``/Stratus/Service/list(_:)``.
    case list(RemotePath)
    /// ``/Stratus/Service/upload(from:to:options:)``: the path and the options.
    case upload(RemotePath, UploadOptions)
    /// ``/Stratus/Service/download(_:version:to:options:)``: the path and the version asked for.
    case download(RemotePath, version: VersionID?)
    /// ``/Stratus/Service/delete(_:precondition:)``.
    case delete(RemotePath, precondition: WritePrecondition)
    /// ``/Stratus/Service/latestChangeToken()``.
    case latestChangeToken
    /// ``/Stratus/Service/changes(since:)``.
    case changes(since: ChangeToken)
    /// ``/Stratus/Service/waitForChanges(after:timeout:)``.
    case waitForChanges(after: ChangeToken, timeout: Duration)
    /// ``/Stratus/Service/versions(of:)``.
    case versions(RemotePath)
    /// ``/Stratus/Service/restore(_:to:)``.
    case restore(RemotePath, to: VersionID)

    /// The requirement's name, such as `upload` or `latestChangeToken`: the same text as the
    /// `stratus.operation` attribute of a call's span.
    public var name: String {
        switch self {
        case .metadata: "metadata"
        case .list: "list"
        case .upload: "upload"
        case .download: "download"
        case .delete: "delete"
        case .latestChangeToken: "latestChangeToken"
        case .changes: "changes"
        case .waitForChanges: "waitForChanges"
        case .versions: "versions"
        case .restore: "restore"
        }
    }
}
