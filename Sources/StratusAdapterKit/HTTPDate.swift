public import Foundation
public import StratusHTTP

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
        if let seconds = imfFixdate(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        // asctime pads a one-digit day with a space: fold runs of spaces before matching.
        let folded = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in [preferred] + obsolete {
            if let date = formatter(format).date(from: folded) { return date }
        }
        return nil
    }

    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .map { Array($0.utf8) }

    /// Unix seconds of an IMF-fixdate read byte by byte, or `nil` for anything else (which the
    /// formatters then try). A `DateFormatter` per call was two thirds of the CPU of a WebDAV
    /// listing, which reads a `getlastmodified` per file. A weekday that does not match the
    /// date is left to the formatters too, so such text reads as it always did.
    private static func imfFixdate(_ text: String) -> Int64? {
        let bytes = Array(
            text.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed())
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
            bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
            bytes[26...].elementsEqual("GMT".utf8),
            let weekday = dayNames.firstIndex(where: { bytes[0..<3].elementsEqual($0) }),
            let month = monthNames.firstIndex(where: { bytes[8..<11].elementsEqual($0) })
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let day = number(5..<7), let year = number(12..<16), let hour = number(17..<19),
            let minute = number(20..<22), let second = number(23..<25),
            let seconds = UTCCalendar.unixSeconds(
                year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        // 1970-01-01 was a Thursday.
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        guard ((days % 7 + 7) % 7 + 4) % 7 == Int64(weekday) else { return nil }
        return seconds
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
