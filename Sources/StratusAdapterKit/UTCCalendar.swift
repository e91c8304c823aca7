/// Calendar arithmetic in UTC (proleptic Gregorian), for the timestamp parsers: whole seconds
/// since 1970 from calendar fields, without a `DateFormatter` or `Calendar` per call.
enum UTCCalendar {
    /// Seconds since 1970-01-01T00:00:00Z for calendar fields, or `nil` when a field is out of
    /// range (month 1...12, a day the month has, hour 0...23, minute and second 0...59).
    static func unixSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64? {
        guard (0...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        // Years counted from March, so that February's leap day ends the year.
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The number of days in a month of a year.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
