/// The UTC calendar text of a moment, `YYYY-MM-DDTHH:MM:SS`, computed with integer arithmetic
/// (proleptic Gregorian calendar): what the mocks' timestamp formats are built on, without a
/// `DateFormatter` or `Calendar` per entry, which dominated the cost of a listing page.
public enum UTCTimeText {
    /// The text for whole seconds since 1970-01-01T00:00:00Z.
    /// - Parameter unixSeconds: Seconds since the epoch; years 0 to 9999 print in four digits.
    public static func make(unixSeconds: Int64) -> String {
        let days = floorDivision(unixSeconds, 86_400)
        let secondOfDay = Int(unixSeconds - days * 86_400)
        // Days since 0000-03-01, counted in 400-year eras of 146,097 days.
        let shifted = days + 719_468
        let era = floorDivision(shifted, 146_097)
        let dayOfEra = Int(shifted - era * 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = Int(era) * 400 + yearOfEra + (month <= 2 ? 1 : 0)
        var text = ""
        text.reserveCapacity(19)
        append(year, width: 4, to: &text)
        text += "-"
        append(month, width: 2, to: &text)
        text += "-"
        append(day, width: 2, to: &text)
        text += "T"
        append(secondOfDay / 3600, width: 2, to: &text)
        text += ":"
        append(secondOfDay / 60 % 60, width: 2, to: &text)
        text += ":"
        append(secondOfDay % 60, width: 2, to: &text)
        return text
    }

    /// Appends a number padded with zeros to at least `width` digits.
    public static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
