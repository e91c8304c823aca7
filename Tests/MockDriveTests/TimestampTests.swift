import Foundation
@testable import MockDrive
import Testing

@Suite("timestamps")
struct TimestampTests {
    @Test("every millisecond value survives parse and format; offsets become UTC")
    func roundTrip() throws {
        for millis in 0..<1000 {
            let digits = String(millis)
            let text = "2026-11-22T06:35:07." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
            let date = try #require(DriveTime.parse(text))
            #expect(DriveTime.format(date) == text)
        }
        #expect(DriveTime.format(try #require(DriveTime.parse("2026-11-22T08:35:07+02:00"))) == "2026-11-22T06:35:07.000Z")
        #expect(DriveTime.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(DriveTime.parse("yesterday") == nil)
    }
}
