import Foundation
import StratusAdapterKit
import StratusHTTP
import Testing

/// `HTTPDate` and `Retry-After`: every date form RFC 9110 makes a recipient accept, and both forms
/// of `Retry-After`.
@Suite struct HTTPDateTests {
    /// RFC 9110's example moment, Sun, 06 Nov 1994 08:49:37 GMT.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func readsAllThreeFormsAndWritesThePreferredOne() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Self.example)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == Self.example)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == Self.example)
        #expect(HTTPDate.parse("  Sun, 06 Nov 1994 08:49:37 GMT ") == Self.example)
        #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Self.example.addingTimeInterval(0.75)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func theFixdateReaderAgreesWithTheCalendar() {
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Wed, 31 Dec 1969 23:59:59 GMT") == Date(timeIntervalSince1970: -1))
        #expect(HTTPDate.parse("Mon, 29 Feb 2016 23:59:59 GMT") == Date(timeIntervalSince1970: 1_456_790_399))
        #expect(HTTPDate.parse("Tue, 29 Feb 2100 00:00:00 GMT") == nil)
        // Every day of several years, written by the formatter and read back.
        var time: TimeInterval = 946_684_800  // 2000-01-01
        while time < 1_100_000_000 {
            let date = Date(timeIntervalSince1970: time)
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date)
            time += 86_400 * 7 + 3_601
        }
    }

    @Test func refusesWhatIsNotADate() {
        #expect(HTTPDate.parse("yesterday") == nil)
        #expect(HTTPDate.parse("") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 PST") == nil)
        #expect(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT") == nil)
    }

    @Test func retryAfterReadsSecondsAndDates() {
        let now = Self.example
        let headers = { (value: String) in StratusHTTPHeaders([("Retry-After", value)]) }
        #expect(headers("120").retryAfter(now: now) == .seconds(120))
        #expect(headers("Sun, 06 Nov 1994 08:50:07 GMT").retryAfter(now: now) == .seconds(30))
        #expect(headers("Sunday, 06-Nov-94 08:50:07 GMT").retryAfter(now: now) == .seconds(30))
        // A date already past means: now.
        #expect(headers("Sun, 06 Nov 1994 08:00:00 GMT").retryAfter(now: now) == .zero)
        // Years away: a wait longer than any policy accepts, never an overflow.
        let far = headers("Fri, 31 Dec 9999 23:59:59 GMT").retryAfter(now: now) ?? .zero
        #expect(far > .seconds(86_400 * 365))
        #expect(headers("soon").retryAfter(now: now) == nil)
        #expect(StratusHTTPHeaders().retryAfter(now: now) == nil)
    }
}
