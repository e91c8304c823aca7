import Foundation
import MockSupport
import Testing

@testable import MockDrive

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
        #expect(
            DriveTime.format(try #require(DriveTime.parse("2026-11-22T08:35:07+02:00"))) == "2026-11-22T06:35:07.000Z")
        #expect(DriveTime.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(DriveTime.parse("yesterday") == nil)
    }

    @Test("the arithmetic calendar agrees with Foundation's over leap years, centuries and every hour of 2024")
    func agreesWithFoundation() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        var samples: [Int64] = [0, -1, 951_782_400, 951_868_799, 4_107_542_400, 253_402_300_799]
        samples += stride(from: Int64(1_704_067_200), to: 1_735_689_600, by: 3599).map { $0 }
        var generator = SystemRandomNumberGenerator()
        samples += (0..<2000).map { _ in Int64.random(in: -2_208_988_800...32_503_680_000, using: &generator) }
        for seconds in samples {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(UTCTimeText.make(unixSeconds: seconds) == expected, "\(seconds)")
        }
    }
}
