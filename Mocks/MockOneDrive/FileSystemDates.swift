import Foundation

/// A `fileSystemInfo` a client sent (`PATCH` of an item, `item` of `createUploadSession`): the
/// dates the client's own file system gave the file, which Graph keeps apart from its own
/// `createdDateTime` and `lastModifiedDateTime`.
struct FileSystemDates: Sendable {
    /// `createdDateTime`, if given.
    var created: Date?
    /// `lastModifiedDateTime`, if given.
    var modified: Date?

    /// No dates.
    init() {}

    /// Reads a `fileSystemInfo` object; `nil` or an absent one gives no dates. Members other
    /// than the two dates (`@odata.type`, `lastAccessedDateTime`) are accepted and left alone.
    /// - Throws: ``GraphFailure`` 400 `invalidRequest` for a value that is not an object or a
    ///   date that cannot be read.
    init(_ value: Any?) throws(GraphFailure) {
        guard let value, !(value is NSNull) else { return }
        guard let object = value as? [String: Any] else {
            throw .invalidRequest("fileSystemInfo must be an object.")
        }
        created = try Self.date(object["createdDateTime"], "createdDateTime")
        modified = try Self.date(object["lastModifiedDateTime"], "lastModifiedDateTime")
    }

    /// Sets the dates on an item, if any were given.
    /// - Returns: The item as it is now, or `nil` when no date was given (or it is gone).
    func apply(to state: inout GraphState, id: String) -> GraphItem? {
        guard created != nil || modified != nil, var item = state.items[id] else { return nil }
        if let created { item.fileSystemCreated = created }
        if let modified { item.fileSystemModified = modified }
        state.items[id] = item
        return item
    }

    /// An ISO 8601 date, with or without fractional seconds.
    private static func date(_ value: Any?, _ name: String) throws(GraphFailure) -> Date? {
        guard let value, !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw .invalidRequest("fileSystemInfo.\(name) must be a date.") }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else {
            throw .invalidRequest("fileSystemInfo.\(name) is not a date: \(text)")
        }
        return date
    }
}
