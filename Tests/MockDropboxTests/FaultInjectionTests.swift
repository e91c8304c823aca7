import Foundation
import MockDropbox
import MockProviders
import MockSupport
import StratusHTTP
import Testing

/// Fault injection on the Dropbox mock: every kind of fault, the rule's counting, and the
/// control routes a tester in another language would use.
@Suite struct FaultInjectionTests {
    @Test func statusFaultAnswersInDropboxsShapeOnceThenTheRouteAnswers() async throws {
        try await DropboxMockProvider().withSession { harness in
            harness.server.faults.add(FaultRule(route: "/2/files/get_metadata", fault: .status(429, retryAfter: 3)))
            try await harness.upload("/a.txt", "hello")
            let limited = try await harness.rpc("get_metadata", ["path": "/a.txt"])
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] == "3")
            let body = try DropboxHarness.object(limited)
            #expect(body["error_summary"] as? String == "too_many_requests/...")
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["retry_after"] as? Int == 3)
            #expect((error["reason"] as? [String: Any])?[".tag"] as? String == "too_many_requests")

            let answered = try await harness.rpc("get_metadata", ["path": "/a.txt"])
            #expect(answered.status == 200)
            #expect(harness.server.faults.rules.first?.injected == 1)
        }
    }

    @Test func serverErrorIsPlainText() async throws {
        try await DropboxMockProvider().withSession { harness in
            harness.server.faults.add(FaultRule(route: "/2/files/*", fault: .status(503)))
            let response = try await harness.rpc("get_metadata", ["path": "/a.txt"])
            #expect(response.status == 503)
            #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
        }
    }

    @Test func nthAndTimesPickWhichMatchesAreInjected() async throws {
        try await DropboxMockProvider().withSession { harness in
            try await harness.upload("/a.txt", "hello")
            harness.server.faults.add(
                FaultRule(route: "/2/files/get_metadata", method: "post", nth: 2, times: 2, fault: .status(500)))
            var statuses: [Int] = []
            for _ in 0..<5 {
                statuses.append(try await harness.rpc("get_metadata", ["path": "/a.txt"]).status)
            }
            #expect(statuses == [200, 500, 500, 200, 200])
            let rule = try #require(harness.server.faults.rules.first)
            #expect(rule.matched == 5)
            #expect(rule.injected == 2)
        }
    }

    @Test func seededProbabilityRepeatsTheSamePattern() {
        func pattern(seed: UInt64) -> [Bool] {
            let injector = FaultInjector(hooks: .init(errorResponse: { _, _ in .init(status: .ok) }, expireTokens: {}))
            injector.add(FaultRule(times: 0, probability: 0.5, seed: seed, fault: .status(503)))
            return (0..<64).map { _ in injector.fault(method: "POST", path: "/x") != nil }
        }
        let first = pattern(seed: 7)
        #expect(first == pattern(seed: 7))
        #expect(first != pattern(seed: 8))
        let injected = first.filter { $0 }.count
        #expect((16...48).contains(injected), "about half of 64 draws should inject, got \(injected)")
    }

    @Test func droppedAnswerLeavesTheWriteDoneOnTheServer() async throws {
        try await DropboxMockProvider().withSession { harness in
            harness.server.faults.add(FaultRule(route: "/2/files/upload", fault: .dropBeforeResponse))
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await harness.contentCall(
                    "upload", ["path": "/lost-answer.txt", "mode": "add"], data: Data("kept".utf8))
            }
            #expect(error?.code == .connectionLost)
            // The outcome was unknown to the client, but the write happened.
            let metadata = try await harness.rpc("get_metadata", ["path": "/lost-answer.txt"])
            #expect(metadata.status == 200)
        }
    }

    @Test func requestCutMidBodyNeverReachesTheRoute() async throws {
        try await DropboxMockProvider().withSession { harness in
            harness.server.faults.add(FaultRule(route: "/2/files/upload", fault: .dropAfterRequestBytes(64 * 1024)))
            let payload = Data(repeating: 0x5A, count: 1_048_576)
            await #expect(throws: StratusHTTPClientError.self) {
                try await harness.contentCall("upload", ["path": "/cut.bin", "mode": "add"], data: payload)
            }
            let metadata = try await harness.rpc("get_metadata", ["path": "/cut.bin"])
            #expect(metadata.status == 409)
        }
    }

    @Test func responseCutAfterSomeBytesLeavesNoDownloadedFile() async throws {
        try await DropboxMockProvider().withSession { harness in
            let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
            let answer1 = try await harness.contentCall("upload", ["path": "/big.bin", "mode": "add"], data: payload)
            #expect(answer1.status == 200)
            harness.server.faults.add(FaultRule(route: "/2/files/download", fault: .dropAfterResponseBytes(100_000)))
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fault-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("big.bin")
            var headers = harness.headers(token: harness.token)
            headers.set("Dropbox-API-Arg", #"{"path":"/big.bin"}"#)
            let request = StratusHTTPRequest(method: .post, url: harness.url("download"), headers: headers)
            let error = await #expect(throws: StratusHTTPClientError.self) {
                try await harness.client.execute(request, into: .unverifiedFile(destination))
            }
            #expect(error?.code == .connectionLost)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

            // The next download is whole again.
            let whole = try await harness.client.execute(request)
            #expect(whole.body == payload)
        }
    }

    @Test func corruptedBodyHasTheSameLengthAndHeadersButOtherBytes() async throws {
        try await DropboxMockProvider().withSession { harness in
            let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let answer2 = try await harness.contentCall("upload", ["path": "/c.bin", "mode": "add"], data: payload)
            #expect(answer2.status == 200)
            harness.server.faults.add(FaultRule(route: "/2/files/download", fault: .corruptBody))
            let corrupted = try await harness.contentCall("download", ["path": "/c.bin"])
            #expect(corrupted.status == 200)
            #expect(corrupted.body.count == payload.count)
            #expect(corrupted.body != payload)
            let result = try #require(corrupted.headers["dropbox-api-result"])
            #expect(result.contains(DropboxHarness.contentHash(payload)))
            #expect(DropboxHarness.contentHash(corrupted.body) != DropboxHarness.contentHash(payload))
        }
    }

    @Test func expireTokensFaultMakesTheTokenExpired() async throws {
        try await DropboxMockProvider().withSession { harness in
            harness.server.faults.add(FaultRule(route: "/2/files/get_metadata", fault: .expireTokens))
            let response = try await harness.rpc("get_metadata", ["path": "/x.txt"])
            #expect(response.status == 401)
            #expect(String(decoding: response.body, as: UTF8.self).contains("expired_access_token"))
        }
    }

    @Test func slowFaultsStillDeliverTheWholeAnswer() async throws {
        try await DropboxMockProvider().withSession { harness in
            let payload = Data(repeating: 0x42, count: 40_000)
            let answer3 = try await harness.contentCall("upload", ["path": "/slow.bin", "mode": "add"], data: payload)
            #expect(answer3.status == 200)
            harness.server.faults.add(
                FaultRule(route: "/2/files/download", times: 2, fault: .bandwidth(bytesPerSecond: 1_000_000)))
            harness.server.faults.add(FaultRule(route: "/2/files/get_metadata", fault: .delay(milliseconds: 20)))
            let answer4 = try await harness.contentCall("download", ["path": "/slow.bin"])
            #expect(answer4.body == payload)
            let answer5 = try await harness.rpc("get_metadata", ["path": "/slow.bin"])
            #expect(answer5.status == 200)
            #expect(harness.server.faults.injectedCount == 2)
        }
    }

    /// A control request as a tester sends it: the control token, JSON for a body.
    private static func control(
        _ url: URL, method: StratusHTTP.StratusHTTPMethod = .get, token: String, body: String? = nil
    ) -> StratusHTTPRequest {
        var request = StratusHTTPRequest(method: method, url: url)
        request.headers.set("Authorization", "Bearer \(token)")
        if let body {
            request.headers.set("Content-Type", "application/json")
            request.body = .bytes(Data(body.utf8))
        }
        return request
    }

    @Test func controlRoutesScriptFaultsOverHTTP() async throws {
        try await DropboxMockProvider().withSession { harness in
            let control = harness.baseURL.appendingPathComponent("__stratus/faults")
            let key = harness.server.faults.controlToken
            let rule =
                #"{"route": "/2/files/get_metadata", "fault": {"kind": "status", "status": 503, "retryAfter": 1}}"#
            let added = try await harness.client.execute(Self.control(control, method: .post, token: key, body: rule))
            #expect(added.status == 201)
            let id = try #require(try DropboxHarness.object(added)["id"] as? String)

            let answer6 = try await harness.rpc("get_metadata", ["path": "/a"])
            #expect(answer6.status == 503)
            let listed = try DropboxHarness.object(try await harness.client.execute(Self.control(control, token: key)))
            let faults = try #require(listed["faults"] as? [[String: Any]])
            #expect(faults.count == 1)
            #expect(faults.first?["id"] as? String == id)
            #expect(faults.first?["injected"] as? Int == 1)

            let removed = try await harness.client.execute(
                Self.control(control.appendingPathComponent(id), method: .delete, token: key))
            #expect(removed.status == 204)
            let missing = try await harness.client.execute(
                Self.control(control.appendingPathComponent(id), method: .delete, token: key))
            #expect(missing.status == 404)

            let bad = #"{"fault": {"kind": "explode"}}"#
            let refused = try await harness.client.execute(Self.control(control, method: .post, token: key, body: bad))
            #expect(refused.status == 400)
            let message = try #require(try DropboxHarness.object(refused)["error"] as? String)
            #expect(message.contains("explode") && message.contains("dropBeforeResponse"))

            // The mock's access token is accepted as well as the control token.
            let requests = try DropboxHarness.object(
                try await harness.client.execute(
                    Self.control(harness.baseURL.appendingPathComponent("__stratus/requests"), token: harness.token)
                ))
            let entries = try #require(requests["requests"] as? [[String: Any]])
            #expect(entries.map { $0["status"] as? Int } == [503])
            let logged = "\(entries)"
            #expect(!logged.contains(harness.token))

            let reset = try await harness.client.execute(
                Self.control(
                    harness.baseURL.appendingPathComponent("__stratus/reset"), method: .post, token: key, body: "{}")
            )
            #expect(reset.status == 204)
            #expect(harness.server.requestLog.entries.isEmpty)
            #expect(harness.server.faults.rules.isEmpty)
        }
    }

    @Test func controlRoutesRefuseWhatAWebPageCouldSend() async throws {
        try await DropboxMockProvider().withSession { harness in
            @Sendable func status(_ request: StratusHTTPRequest) async throws -> Int {
                try await harness.client.execute(request).status
            }
            let control = harness.baseURL.appendingPathComponent("__stratus/faults")
            let key = harness.server.faults.controlToken
            let rule = #"{"fault": {"kind": "status", "status": 503}}"#
            // No credential, or a wrong one: 401.
            var plain = StratusHTTPRequest(method: .post, url: control, body: .bytes(Data(rule.utf8)))
            plain.headers.set("Content-Type", "application/json")
            let status1 = try await status(plain)
            #expect(status1 == 401)
            let status2 = try await status(Self.control(control, token: "guess"))
            #expect(status2 == 401)
            let status3 = try await status(
                StratusHTTPRequest(url: harness.baseURL.appendingPathComponent("__stratus/requests")))
            #expect(status3 == 401)
            // A form or text body (what a page may post anywhere without asking): 415.
            var text = Self.control(control, method: .post, token: key)
            text.headers.set("Content-Type", "text/plain")
            text.body = .bytes(Data(rule.utf8))
            let status4 = try await status(text)
            #expect(status4 == 415)
            var reset = Self.control(
                harness.baseURL.appendingPathComponent("__stratus/reset"), method: .post, token: key)
            reset.headers.set("Content-Type", "application/x-www-form-urlencoded")
            let status5 = try await status(reset)
            #expect(status5 == 415)
            // A reset with no body and no content type (what curl -X POST sends) is taken.
            let bare = try await status(
                Self.control(harness.baseURL.appendingPathComponent("__stratus/reset"), method: .post, token: key))
            #expect(bare == 204)
            // A DNS name in Host (DNS rebinding): 403.
            var rebound = Self.control(control, token: key)
            rebound.headers.set("Host", "attacker.example:\(harness.baseURL.port ?? 0)")
            let status6 = try await status(rebound)
            #expect(status6 == 403)
            #expect(harness.server.faults.rules.isEmpty)
            // localhost and IPv6 literals are fine.
            var local = Self.control(control, token: key)
            local.headers.set("Host", "localhost:\(harness.baseURL.port ?? 0)")
            let status7 = try await status(local)
            #expect(status7 == 200)
            #expect(FaultControlRoutes.isLocalAuthority("[::1]:8080"))
            #expect(FaultControlRoutes.isLocalAuthority("127.0.0.1"))
            #expect(!FaultControlRoutes.isLocalAuthority("127.0.0.1.nip.io"))
            #expect(!FaultControlRoutes.isLocalAuthority("[evil]"))
        }
    }
}
