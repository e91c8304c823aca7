import Foundation
import Stratus
import StratusAdapterKit
import Testing

@testable import StratusDrive

/// The duplicate-name rule, `q` quoting, URL encoding, change tokens and `Range` parsing.
@Suite struct NamesAndTokensTests {
    private func file(_ id: String, created: TimeInterval?, folder: Bool = false) -> DriveFile {
        DriveFile(
            id: id, name: "same", mimeType: folder ? DriveFile.folderMimeType : "application/octet-stream",
            createdTime: created.map { Date(timeIntervalSince1970: $0) })
    }

    @Test func oldestCreatedTimeWins() {
        let picked = DriveNameRule.preferred([file("c", created: 30), file("a", created: 20), file("b", created: 10)])
        #expect(picked?.id == "b")
    }

    @Test func tiesAreBrokenByTheSmallestID() {
        let candidates = [file("b2", created: 10), file("B9", created: 10), file("a1", created: 10)]
        #expect(DriveNameRule.preferred(candidates)?.id == "B9")
        // The order the candidates arrive in does not matter.
        #expect(DriveNameRule.preferred(candidates.reversed())?.id == "B9")
        #expect(DriveNameRule.preferred(candidates.shuffled())?.id == "B9")
    }

    @Test func undatedEntriesComeLast() {
        #expect(DriveNameRule.preferred([file("a", created: nil), file("z", created: 99)])?.id == "z")
        #expect(DriveNameRule.preferred([file("b", created: nil), file("a", created: nil)])?.id == "a")
        #expect(DriveNameRule.preferred([]) == nil)
    }

    @Test func namesMatchScalarForScalar() {
        #expect(DriveNameRule.sameName("caf\u{E9}", "caf\u{E9}"))
        #expect(!DriveNameRule.sameName("caf\u{E9}", "cafe\u{301}"))
        #expect(!DriveNameRule.sameName("Save.json", "save.json"))
        #expect(NameKey("caf\u{E9}") != NameKey("cafe\u{301}"))
        #expect(Set([NameKey("a"), NameKey("a"), NameKey("A")]).count == 2)
    }

    @Test func queryLiteralsEscapeQuotesAndBackslashes() {
        #expect(DriveQuery.literal("it's") == #"'it\'s'"#)
        #expect(DriveQuery.literal(#"a\b"#) == #"'a\\b'"#)
        #expect(
            DriveQuery.children(of: "0AB", named: "x y.txt")
                == "'0AB' in parents and name = 'x y.txt' and trashed = false")
        #expect(DriveQuery.children(of: "0AB") == "'0AB' in parents and trashed = false")
    }

    @Test func queryValuesArePercentEncoded() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8080"))
        let url = DriveTransport.url(base, "drive/v3/files", [("q", "name = 'a=b+c & d'"), ("fields", "files(id)")])
        #expect(
            url.absoluteString
                == "http://127.0.0.1:8080/drive/v3/files?q=name%20%3D%20%27a%3Db%2Bc%20%26%20d%27&fields=files%28id%29")
        #expect(DriveTransport.url(base, "a", [("q", "é~_.-")]).absoluteString.hasSuffix("/a?q=%C3%A9~_.-"))
    }

    @Test func changeTokensRoundTrip() throws {
        let cursor = DriveChangeCursor(issuedAt: 1_700_000_000, pageToken: "1234")
        #expect(cursor.token.rawValue == "v1:1700000000:1234")
        #expect(try DriveChangeCursor(cursor.token) == cursor)
        let unknownTime = DriveChangeCursor(issuedAt: nil, pageToken: "77")
        #expect(try DriveChangeCursor(unknownTime.token) == unknownTime)
    }

    @Test(arguments: [
        "", "1234", "v1:", "v1:12", "v2:1:5", "v1:x:5", "v1:1:", "v1:1:a b", "v1:1:\u{1F4A9}", "not a change token",
    ])
    func foreignTokensAreRefused(_ raw: String) {
        #expect(throws: ServiceError.self) { try DriveChangeCursor(ChangeToken(rawValue: raw)) }
        do {
            _ = try DriveChangeCursor(ChangeToken(rawValue: raw))
        } catch let error as ServiceError {
            #expect(error.code == .invalidChangeToken)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func serverTimeFromTheDateHeader() {
        #expect(HTTPDate.serverTime(["Date": "Sun, 06 Nov 1994 08:49:37 GMT"]) == 784_111_777)
        #expect(HTTPDate.serverTime(["Date": "yesterday"]) == nil)
        #expect(HTTPDate.serverTime([:]) == nil)
    }

    @Test func resumableRangeHeader() {
        #expect(DriveResumableUpload.receivedBytes("bytes=0-262143", size: 262_144) == 262_144)
        #expect(DriveResumableUpload.receivedBytes("bytes=0-0", size: 10) == 1)
        #expect(DriveResumableUpload.receivedBytes("bytes=5-9", size: 10) == nil)
        #expect(DriveResumableUpload.receivedBytes("0-9", size: 10) == nil)
        // A server-chosen last byte at or beyond the upload's length is refused, never added to.
        #expect(DriveResumableUpload.receivedBytes("bytes=0-10", size: 10) == nil)
        #expect(DriveResumableUpload.receivedBytes("bytes=0-9223372036854775807", size: 10) == nil)
    }
}
