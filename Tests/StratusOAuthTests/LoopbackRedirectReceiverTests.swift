import Foundation
import Stratus
import StratusHTTP
import StratusOAuth
import Testing

@Suite struct LoopbackRedirectReceiverTests {
    private func get(_ url: String, with http: StratusHTTPClient) async throws -> (status: Int, page: String) {
        let response = try await http.execute(StratusHTTP.StratusHTTPRequest(url: try #require(URL(string: url))))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test func bindsLoopbackAndReturnsTheCodeForTheExpectedState() async throws {
        let http = try StratusHTTPClient()
        let receiver = try LoopbackRedirectReceiver()
        #expect(receiver.port > 0)
        #expect(receiver.redirectURI.absoluteString == "http://127.0.0.1:\(receiver.port)/callback")
        async let code = receiver.waitForCode(state: "expected-state", timeout: .seconds(60))
        let answer = try await get("\(receiver.redirectURI)?code=the%2Fcode&state=expected-state", with: http)
        #expect(try await code == "the/code")
        #expect(answer.status == 200)
        #expect(answer.page.contains("signed in"))
        #expect(!answer.page.contains("the/code"))
        await http.shutdown()
    }

    @Test func aWrongStateIsAnsweredAndIgnoredUntilTheRightOneArrives() async throws {
        let http = try StratusHTTPClient()
        let receiver = try LoopbackRedirectReceiver()
        async let code = receiver.waitForCode(state: "right", timeout: .seconds(60))
        let wrong = try await get("\(receiver.redirectURI)?code=forged&state=wrong", with: http)
        #expect(wrong.status == 400)
        #expect(wrong.page.contains("does not belong to the sign-in in progress"))
        let missing = try await get("\(receiver.redirectURI)?code=forged", with: http)
        #expect(missing.status == 400)
        let deniedWithoutState = try await get("\(receiver.redirectURI)?error=access_denied", with: http)
        #expect(deniedWithoutState.status == 400, "an error without the state cannot end the sign-in")
        let favicon = try await get("http://127.0.0.1:\(receiver.port)/favicon.ico", with: http)
        #expect(favicon.status == 404)
        let right = try await get("\(receiver.redirectURI)?state=right&code=genuine", with: http)
        #expect(right.status == 200)
        #expect(try await code == "genuine")
        await http.shutdown()
    }

    @Test func accessDeniedBecomesATypedError() async throws {
        let http = try StratusHTTPClient()
        let receiver = try LoopbackRedirectReceiver()
        let waiting = Task { try await receiver.waitForCode(state: "s", timeout: .seconds(60)) }
        let page = try await get(
            "\(receiver.redirectURI)?error=access_denied&error_description=The+user+said+no&state=s", with: http)
        #expect(page.status == 403)
        #expect(page.page.contains("Access was not granted"))
        let error = await #expect(throws: ServiceError.self) { try await waiting.value }
        #expect(error?.code == .permissionDenied)
        #expect(error?.providerError == "access_denied")
        #expect(error?.message.contains("start the sign-in again") == true)
        await http.shutdown()
    }

    @Test func timesOutPromptlyAndClosesTheSocket() async throws {
        let receiver = try LoopbackRedirectReceiver()
        var caught: ServiceError?
        let took = await elapsed {
            caught = await #expect(throws: ServiceError.self) {
                try await receiver.waitForCode(state: "s", timeout: .milliseconds(200))
            }
        }
        #expect(caught?.code == .timeout)
        #expect(took >= .milliseconds(200))
        let http = try StratusHTTPClient()
        await #expect(throws: StratusHTTPClientError.self) {
            _ = try await http.execute(StratusHTTP.StratusHTTPRequest(url: receiver.redirectURI))
        }
        await http.shutdown()
        let reuse = await #expect(throws: ServiceError.self) {
            try await receiver.waitForCode(state: "s", timeout: .seconds(1))
        }
        #expect(reuse?.code == .invalidConfiguration)
    }

    @Test func cancellationEndsTheWaitAtOnce() async throws {
        let receiver = try LoopbackRedirectReceiver()
        let waiting = Task { try await receiver.waitForCode(state: "s", timeout: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        let outcome = await waiting.result
        // Cancelled, not timed out: the 60-second wait ended with the task.
        #expect(throws: ServiceError.self) { try outcome.get() }
        if case .failure(let error as ServiceError) = outcome { #expect(error.code == .cancelled) }
    }

    @Test func listensOnAChosenPort() async throws {
        let probe = try LoopbackRedirectReceiver()
        let port = probe.port
        probe.close()
        let receiver = try LoopbackRedirectReceiver(port: port, path: "oauth/done")
        #expect(receiver.redirectURI.absoluteString == "http://127.0.0.1:\(port)/oauth/done")
        let busy = #expect(throws: ServiceError.self) { try LoopbackRedirectReceiver(port: port) }
        #expect(busy?.code == .invalidConfiguration)
        #expect(throws: ServiceError.self) { try LoopbackRedirectReceiver(port: 70_000) }
    }

    @Test func anOversizedRequestIsRefusedAndTheWaitGoesOn() async throws {
        let http = try StratusHTTPClient()
        let receiver = try LoopbackRedirectReceiver()
        async let code = receiver.waitForCode(state: "s", timeout: .seconds(30))
        // A request head over the size cap is answered and dropped.
        var request = StratusHTTP.StratusHTTPRequest(url: receiver.redirectURI)
        request.headers.add("X-Padding", String(repeating: "x", count: 10_000))
        let tooLarge = try await http.execute(request)
        #expect(tooLarge.status == 431)
        let answer = try await get("\(receiver.redirectURI)?state=s&code=c", with: http)
        #expect(answer.status == 200)
        #expect(try await code == "c")
        await http.shutdown()
    }
}
