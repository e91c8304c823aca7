import Foundation
import StratusHTTP

/// Dates in the forms HTTP header fields carry (RFC 9110, section 5.6.7), such as
/// `Sun, 06 Nov 1994 08:49:37 GMT` in `Date`, `Last-Modified` and `Retry-After`.
public enum HTTPDate {
    /// The preferred form, IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    private static let preferred = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    /// The obsolete forms a recipient must still accept: RFC 850 (`Sunday, 06-Nov-94 08:49:37
    /// GMT`) and ANSI C's asctime (`Sun Nov  6 08:49:37 1994`).
    private static let obsolete = ["EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"]

    /// Parses a date in any of the three forms RFC 9110 names: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime
    /// (`Sun Nov  6 08:49:37 1994`), all in GMT.
    /// - Parameter text: The header value; surrounding white space is ignored.
    /// - Returns: The date, or `nil` when the text is in none of those forms.
    public static func parse(_ text: String) -> Date? {
        // asctime pads a one-digit day with a space: fold runs of spaces before matching.
        let folded = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in [preferred] + obsolete {
            if let date = formatter(format).date(from: folded) { return date }
        }
        return nil
    }

    /// Writes a date in the preferred form, such as `Sun, 06 Nov 1994 08:49:37 GMT` (for
    /// `If-Modified-Since` and the like); fractions of a second are dropped.
    /// - Parameter date: The date.
    /// - Returns: The header value.
    public static func format(_ date: Date) -> String {
        formatter(preferred).string(from: date)
    }

    /// The server's time of an answer, from its `Date` header, as Unix seconds.
    /// - Parameter headers: The answer's headers.
    /// - Returns: The seconds, or `nil` when the header is missing or unreadable.
    public static func serverTime(_ headers: StratusHTTPHeaders) -> Int64? {
        headers["Date"].flatMap(parse).map { Int64($0.timeIntervalSince1970) }
    }

    /// A formatter for one pattern in GMT with English names (formatters are not `Sendable`,
    /// so each call makes its own).
    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        formatter.isLenient = false
        return formatter
    }
}
