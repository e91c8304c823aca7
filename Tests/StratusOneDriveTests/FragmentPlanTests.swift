import Foundation
import Stratus
import Testing

@testable import StratusOneDrive

@Suite("OneDrive upload fragments")
struct FragmentPlanTests {
    @Test("Fragments are the configured size except the last")
    func fragments() {
        let unit = OneDriveConfiguration.fragmentUnit
        #expect(OneDriveFragmentPlan.fragment(from: 0, size: 3 * unit + 5, fragmentSize: unit) == 0..<unit)
        #expect(
            OneDriveFragmentPlan.fragment(from: 3 * unit, size: 3 * unit + 5, fragmentSize: unit)
                == (3 * unit)..<(3 * unit + 5))
        #expect(OneDriveFragmentPlan.contentRange(0..<unit, size: 1_000_000) == "bytes 0-327679/1000000")
    }

    @Test("nextExpectedRanges: the first expected byte, in either spelling")
    func nextExpectedRanges() throws {
        #expect(try OneDriveFragmentPlan.firstExpected(["655360-"], size: 1_000_000) == 655_360)
        #expect(try OneDriveFragmentPlan.firstExpected(["12345-55232", "77829-99375"], size: 100_000) == 12_345)
        #expect(try OneDriveFragmentPlan.firstExpected(["77829-", "0-1023"], size: 100_000) == 0)
        #expect(try OneDriveFragmentPlan.firstExpected([], size: 100_000) == nil)
    }

    @Test(
        "A range the session cannot mean is a typed error, not a skip",
        arguments: ["", "x-", "-5", "200000-", "5-2", "5-100000"])
    func badRanges(range: String) {
        let error = #expect(throws: ServiceError.self) {
            try OneDriveFragmentPlan.firstExpected([range], size: 100_000)
        }
        #expect(error?.code == .invalidResponse)
    }

    @Test("Fragment sizes must be multiples of 320 KiB below 60 MiB")
    func fragmentSizeRule() throws {
        #expect(throws: ServiceError.self) { try OneDriveConfiguration(fragmentSize: 256 * 1024) }
        #expect(throws: ServiceError.self) { try OneDriveConfiguration(fragmentSize: 192 * 327_680) }
        #expect(throws: ServiceError.self) { try OneDriveConfiguration(fragmentSize: 0) }
        #expect(try OneDriveConfiguration(fragmentSize: 191 * 327_680).fragmentSize == 62_586_880)
        #expect(try OneDriveConfiguration().fragmentSize == 10 * 1_048_576)
        #expect(throws: ServiceError.self) { try OneDriveConfiguration(simpleUploadLimit: 250_000_001) }
        #expect(throws: ServiceError.self) { try OneDriveConfiguration(pageSize: 0) }
    }
}
