import Foundation
import Stratus
import Testing

@testable import StratusDropbox

/// Reading Stone error unions from error bodies.
@Suite struct StoneErrorBodyTests {
    private func union(_ json: String) -> StoneErrorBody? {
        StoneErrorBody.parseUnion(Data(json.utf8))
    }

    @Test func nestedUnionMember() throws {
        let error = try #require(union(#"{".tag":"path","path":{".tag":"not_found"}}"#))
        #expect(error.tags == ["path", "not_found"])
        #expect(DropboxErrorMapping.code(for: error) == .notFound)
    }

    @Test func inlinedStructMemberWithOffset() throws {
        let error = try #require(union(#"{".tag":"incorrect_offset","correct_offset":4}"#))
        #expect(error.tags == ["incorrect_offset"])
        #expect(error.correctOffset == 4)
    }

    @Test func finishLookupFailedOffset() throws {
        let error = try #require(
            union(#"{".tag":"lookup_failed","lookup_failed":{".tag":"incorrect_offset","correct_offset":8388608}}"#))
        #expect(error.tags == ["lookup_failed", "incorrect_offset"])
        #expect(error.correctOffset == 8_388_608)
    }

    @Test func bareStringVoidMember() throws {
        let error = try #require(union(#""reset""#))
        #expect(error.tags == ["reset"])
        #expect(DropboxErrorMapping.code(for: error) == .invalidChangeToken)
        let nested = try #require(union(#"{".tag":"path","path":"not_found"}"#))
        #expect(nested.tags == ["path", "not_found"])
    }

    @Test func uploadWriteFailedReason() throws {
        let error = try #require(
            union(#"{".tag":"path","reason":{".tag":"conflict","conflict":{".tag":"file"}},"upload_session_id":"abc"}"#)
        )
        #expect(error.tags == ["path", "conflict", "file"])
        #expect(DropboxErrorMapping.code(for: error) == .conflict)
    }

    @Test func fullErrorBody() throws {
        let body =
            #"{"error_summary":"path/not_found/..","error":{".tag":"path","path":{".tag":"not_found"}},"user_message":{"text":"x","locale":"en"}}"#
        let error = try #require(StoneErrorBody.parse(Data(body.utf8)))
        #expect(error.summary == "path/not_found/..")
        #expect(error.tags == ["path", "not_found"])
    }

    @Test func notJSON() {
        #expect(StoneErrorBody.parse(Data("Error in call to API function".utf8)) == nil)
    }
}
