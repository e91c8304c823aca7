import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP
import Testing

@testable import StratusDropbox

/// Change tokens: format, rejection of foreign tokens, and the server time they carry.
@Suite struct ChangeCursorTests {
    @Test func roundTrip() throws {
        let cursor = DropboxChangeCursor(isAccountWide: false, issuedAt: 1_700_000_000, cursor: "AAE:x:y")
        #expect(cursor.token.rawValue == "v1:1700000000:AAE:x:y")
        #expect(try DropboxChangeCursor(cursor.token) == cursor)
        let account = DropboxChangeCursor(isAccountWide: true, issuedAt: nil, cursor: "c")
        #expect(account.token.rawValue == "v1a::c")
        #expect(try DropboxChangeCursor(account.token) == account)
    }

    @Test(arguments: ["", "v1:", "v1:12:", "v2:1:c", "cursor-only", "v1:abc:c"])
    func foreignTokensAreInvalid(_ raw: String) {
        do {
            _ = try DropboxChangeCursor(ChangeToken(rawValue: raw))
            Issue.record("\(raw) was accepted")
        } catch let error as ServiceError {
            #expect(error.code == .invalidChangeToken)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func serverTimeFromTheDateHeader() {
        let headers: StratusHTTPHeaders = ["Date": "Sun, 06 Nov 1994 08:49:37 GMT"]
        #expect(HTTPDate.serverTime(headers) == 784_111_777)
        #expect(HTTPDate.serverTime(["Date": "yesterday"]) == nil)
        #expect(HTTPDate.serverTime([:]) == nil)
    }
}
