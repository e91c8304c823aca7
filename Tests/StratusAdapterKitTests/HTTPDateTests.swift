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
