import Stratus
import StratusAdapterKit
import Testing

@Suite("Paging guard")
struct PagingGuardTests {
    @Test func aRepeatedLinkIsRefusedAndNotNamed() throws {
        var paging = PagingGuard(action: "GET children")
        #expect(try paging.admit("https://h/p?token=secret-a") == "https://h/p?token=secret-a")
        try paging.admit("https://h/p?token=secret-b")
        let error = #expect(throws: ServiceError.self) { try paging.admit("https://h/p?token=secret-a") }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("secret") == false)
    }

    @Test func theFirstLinkCountsAsFollowed() throws {
        var paging = PagingGuard(action: "GET delta", first: "cursor")
        #expect(throws: ServiceError.self) { try paging.admit("cursor") }
    }

    @Test func pagesStopAtTheBound() throws {
        var paging = PagingGuard(action: "GET versions", maximumPages: 3)
        try paging.admit("2")
        try paging.admit("3")
        #expect(paging.pages == 3)
        let error = #expect(throws: ServiceError.self) { try paging.admit("4") }
        #expect(error?.code == .invalidResponse)
    }
}
