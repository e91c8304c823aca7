import Foundation
import MockSupport

/// JSON as the Drive mock writes and reads it.
enum DriveJSON {
    /// JSON text for a value built from dictionaries, arrays, strings, numbers, booleans and
    /// `NSNull`, keys sorted.
    static func text(_ value: Any) -> String {
        SortedJSONText.make(value) ?? "null"
    }

    /// Decodes a request body that must be a JSON object (an empty body is an empty object).
    /// - Throws: ``DriveFailure`` 400 `parseError` when it is not.
    static func object(_ data: Data) throws(DriveFailure) -> [String: Any] {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw DriveFailure(DriveErrorBody(code: 400, reason: "parseError", message: "Parse Error"))
        }
        return object
    }

    /// Whether a number decoded by `JSONSerialization` was a JSON boolean.
    static func isBoolean(_ value: Any) -> Bool {
        (value as? NSNumber)?.isJSONBoolean ?? false
    }
}

/// Drive's timestamps: RFC 3339 in UTC with milliseconds, `2026-11-22T06:35:00.123Z`.
///
/// Dates are kept as whole milliseconds; formatting rounds to the nearest millisecond, so a
/// time a client sent comes back exactly as it was written.
enum DriveTime {
    /// The text form of a date.
    static func format(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = Int(millis - seconds * 1000)
        var text = UTCTimeText.make(unixSeconds: seconds)
        text += "."
        UTCTimeText.append(fraction, width: 3, to: &text)
        text += "Z"
        return text
    }

    /// The date of an RFC 3339 text, with or without fractional seconds and with any offset.
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return truncated(date) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// The current time, truncated to milliseconds.
    static func now() -> Date {
        Date(timeIntervalSince1970: TimeInterval(Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) / 1000)
    }

    /// A date rounded to whole milliseconds, as Drive keeps them.
    static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: TimeInterval(Int64((date.timeIntervalSince1970 * 1000).rounded())) / 1000)
    }
}
