import Foundation
import StratusHTTP

/// Dates in the RFC 9110 form HTTP headers carry, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
package enum HTTPDate {
    /// Parses a date such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    /// - Parameter text: The header value.
    /// - Returns: The date, or `nil` when the text is not in that form.
    package static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    /// The server's time of an answer, from its `Date` header, as Unix seconds.
    /// - Parameter headers: The answer's headers.
    /// - Returns: The seconds, or `nil` when the header is missing or unreadable.
    package static func serverTime(_ headers: StratusHTTPHeaders) -> Int64? {
        headers["Date"].flatMap(parse).map { Int64($0.timeIntervalSince1970) }
    }
}
