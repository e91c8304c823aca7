public import Foundation

/// RFC 3339 timestamps as Dropbox and Drive send them (`2024-01-01T00:00:00Z`,
/// `2024-01-01T00:00:00.123Z`, `...+02:00`), read by hand: a change-feed page carries
/// thousands, and a `Date.ISO8601FormatStyle` parse per entry was a large share of reading it.
public enum RFC3339Time {
    /// The date of a timestamp, or `nil` when the text is not one. Text outside the common
    /// shape (`YYYY-MM-DDTHH:MM:SS`, optional fraction, `Z` or `±HH:MM`) is handed to Foundation's
    /// ISO 8601 parser, so nothing it accepts is refused.
    public static func parse(_ text: String) -> Date? {
        if let date = parseCommon(text) { return date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).parse(text) {
            return date
        }
        return try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(text)
    }

    private static func parseCommon(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let digit = Int(bytes[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let seconds = UTCCalendar.unixSeconds(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 0x2E {
            index += 1
            var scale = 1.0
            var digits = 0
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                if digits < 9 {
                    value = value * 10 + Int(bytes[index] - 0x30)
                    scale *= 10
                }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            fraction = Double(value) / scale
        }
        var offset: Int64 = 0
        if index == bytes.count - 1, bytes[index] == 0x5A {
            offset = 0
        } else if index == bytes.count - 6, bytes[index] == 0x2B || bytes[index] == 0x2D, bytes[index + 3] == 0x3A,
            let hours = number(index + 1, 2), let minutes = number(index + 4, 2), hours <= 23, minutes <= 59
        {
            offset = Int64(hours * 3600 + minutes * 60) * (bytes[index] == 0x2B ? 1 : -1)
        } else {
            return nil
        }
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }
}
