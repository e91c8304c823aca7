import Foundation
import MockSupport
import Testing

/// A fault rule's route pattern: `*` is any run of characters, matched without backtracking.
@Suite struct RouteGlobTests {
    private func matches(_ route: String, _ path: String) -> Bool {
        FaultRule(route: route, fault: .status(503)).matches(method: "GET", path: path)
    }

    @Test func starsMatchAnyRun() {
        #expect(matches("*", "/anything/at/all"))
        #expect(matches("*", ""))
        #expect(matches("/2/files/*", "/2/files/upload"))
        #expect(matches("/2/files/*", "/2/files/"))
        #expect(!matches("/2/files/*", "/2/file"))
        #expect(matches("/drive/v3/files/*/revisions", "/drive/v3/files/abc/revisions"))
        #expect(!matches("/drive/v3/files/*/revisions", "/drive/v3/files/abc/revisions/1"))
        #expect(matches("/a*b*c", "/aXbYbZc"))
        #expect(matches("*ab*ab*", "xabyab"))
        #expect(!matches("*ab*ab*", "xaby"))
        #expect(matches("a*a", "aa"))
        #expect(!matches("a*a", "a"))
        #expect(matches("/exact", "/exact"))
        #expect(!matches("/exact", "/exact/"))
    }

    @Test func manyStarsTakeNoTime() {
        // Seven stars and a text that almost matches: the backtracking matcher took seconds for
        // 64 characters, and would take hours for these 200; the matcher in use takes
        // microseconds, so the bound holds on any machine, however busy.
        let route = "/*a*a*a*a*a*a*b"
        let path = "/" + String(repeating: "a", count: 200)
        let elapsed = ContinuousClock().measure { #expect(!matches(route, path)) }
        #expect(elapsed < .seconds(10), "\(elapsed)")
        // A long text costs no more than its length.
        let long = "/" + String(repeating: "a", count: 100_000)
        var matched = true
        let longElapsed = ContinuousClock().measure { matched = matches(route, long) }
        #expect(!matched)
        #expect(longElapsed < .seconds(10), "\(longElapsed)")
    }

    @Test func aRuleCanTargetOneDropboxDownloadByItsArgumentHeader() throws {
        let json =
            #"{"route": "/2/files/download", "headers": {"dropbox-api-arg": "*\"/b.txt\"*"}, "#
            + #""fault": {"kind": "status", "status": 503}}"#
        let rule = try JSONDecoder().decode(FaultRule.self, from: Data(json.utf8))
        func argument(_ path: String) -> (String) -> String? {
            { name in name.lowercased() == "dropbox-api-arg" ? #"{"path": "\#(path)"}"# : nil }
        }
        #expect(rule.matches(method: "POST", path: "/2/files/download", header: argument("/b.txt")))
        #expect(!rule.matches(method: "POST", path: "/2/files/download", header: argument("/a.txt")))
        #expect(!rule.matches(method: "POST", path: "/2/files/download"), "no header, no match")
        #expect(!rule.matches(method: "POST", path: "/2/files/upload", header: argument("/b.txt")))
    }
}
