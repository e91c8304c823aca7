import Foundation
import MockSupport

/// Dropbox timestamps: `%Y-%m-%dT%H:%M:%SZ`, UTC, whole seconds.
enum DropboxTimestamp {
    /// The text form of a date.
    static func format(_ date: Date) -> String {
        UTCTimeText.make(unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down))) + "Z"
    }

    /// The date of a text form, or `nil` when it is not one.
    static func parse(_ text: String) -> Date? {
        formatter().date(from: text)
    }

    /// The current time, truncated to whole seconds.
    static func now() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter
    }
}
