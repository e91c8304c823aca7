import Foundation
import Hummingbird
import MockSupport
import StratusHTTP
import Testing

@Suite("Request log")
struct RequestLogTests {
    @Test("Keeps entries in order, filters by path, drops the oldest beyond capacity, clears")
    func entries() {
        let log = RequestLog(capacity: 3)
        for index in 0..<4 {
            log.append(
                RecordedRequest(method: "GET", path: index.isMultiple(of: 2) ? "/even" : "/odd", status: 200 + index))
        }
        #expect(log.count == 3)
        #expect(log.entries.map(\.status) == [201, 202, 203])
        #expect(log.entries(path: "/odd").map(\.status) == [201, 203])
        #expect(log.entries { $0.status > 201 }.count == 2)
        #expect(log.description.components(separatedBy: "\n").count == 3)
        log.clear()
        #expect(log.entries.isEmpty)
    }

    @Test("Keeps the newest entries oldest first after the log wraps several times, and after a clear")
    func wrapsAround() {
        let log = RequestLog(capacity: 4)
        for index in 0..<11 { log.append(RecordedRequest(method: "GET", path: "/p", status: index)) }
        #expect(log.count == 4)
        #expect(log.entries.map(\.status) == [7, 8, 9, 10])
        #expect(log.entries(path: "/p").map(\.status) == [7, 8, 9, 10])
        log.clear()
        for index in 0..<2 { log.append(RecordedRequest(method: "GET", path: "/p", status: index)) }
        #expect(log.entries.map(\.status) == [0, 1])
        let single = RequestLog(capacity: 1)
        for index in 0..<3 { single.append(RecordedRequest(method: "GET", path: "/p", status: index)) }
        #expect(single.entries.map(\.status) == [2])
    }

    @Test("Redaction rules for names, headers and JSON")
    func redactionRules() throws {
        for name in [
            "access_token", "refresh_token", "client_secret", "code", "code_verifier", "token", "Password",
            "app_secret",
        ] {
            #expect(SecretRedaction.isSecret(name: name), "\(name)")
        }
        for name in ["client_id", "state", "code_challenge", "grant_type", "path", "token_access_type", "scope"] {
            #expect(!SecretRedaction.isSecret(name: name), "\(name)")
        }
        #expect(SecretRedaction.headerValue("Bearer abc", named: "Authorization") == "Bearer <redacted>")
        #expect(SecretRedaction.headerValue("abc", named: "Authorization") == "<redacted>")
        #expect(SecretRedaction.headerValue("s3cr3t", named: "X-Goog-Api-Key") == "<redacted>")
        #expect(SecretRedaction.headerValue("text/plain", named: "Content-Type") == "text/plain")
        #expect(
            SecretRedaction.json(#"{"path":"/a","nested":{"access_token":"t","list":[{"code":"c"}]}}"#)
                == #"{"nested":{"access_token":"<redacted>","list":[{"code":"<redacted>"}]},"path":"/a"}"#)
        #expect(SecretRedaction.json("not json") == "<8 bytes, not JSON>")
        // Written as JSONSerialization writes it (sorted keys, unescaped slashes), booleans and
        // numbers included.
        let argument =
            #"{"path":"/Saves/é \"1\".bin","mode":{".tag":"update","update":"015"},"autorename":false,"#
            + #""mute":true,"client_modified":"2026-11-25T14:00:00Z","size":4096,"ratio":0.5,"list":[1,true,null]}"#
        let object = try #require(try? JSONSerialization.jsonObject(with: Data(argument.utf8)))
        let expected = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        #expect(SecretRedaction.json(argument) == String(decoding: expected, as: UTF8.self))
    }

    @Test("The middleware records method, path, redacted query, headers, arguments and status over HTTP")
    func middleware() async throws {
        let log = RequestLog()
        let router = Router()
        router.add(middleware: RequestLogMiddleware(log: log))
        router.post("/echo") { request, _ -> Response in
            var request = request
            let form = try await request.readForm()
            // The route still sees the whole body after the log read it.
            return Response.json(text: "\"\(form["client_secret"] ?? "")\"", status: .created)
        }
        router.post("/json") { request, _ -> Response in
            var request = request
            let body = try await request.readBody(limit: 1024)
            return Response.text("\(body.readableBytes)", status: .ok)
        }
        let secrets = [
            "query-token-value", "bearer-value", "form-secret-value", "form-code-value", "json-refresh-value",
        ]
        let client = try StratusHTTPClient()
        try await MockServer.withRunning(router) { url in
            let echo = try await client.execute(
                StratusHTTPRequest(
                    method: .post,
                    url: try #require(URL(string: "\(url.absoluteString)/echo?token=query-token-value&state=s1")),
                    headers: [
                        "Authorization": "Bearer bearer-value", "Content-Type": "application/x-www-form-urlencoded",
                        "X-Other": "not kept",
                    ],
                    body: .bytes(Data("client_id=app&client_secret=form-secret-value&code=form-code-value".utf8))
                ))
            #expect(echo.status == 201)
            #expect(String(decoding: echo.body, as: UTF8.self) == "\"form-secret-value\"")

            let json = try await client.execute(
                StratusHTTPRequest(
                    method: .post,
                    url: try #require(URL(string: "\(url.absoluteString)/json")),
                    headers: ["Content-Type": "application/json; charset=utf-8", "Dropbox-API-Arg": #"{"path":"/x"}"#],
                    body: .bytes(Data(#"{"refresh_token":"json-refresh-value"}"#.utf8))
                ))
            #expect(json.status == 200)
            let missing = try await client.execute(
                StratusHTTPRequest(url: try #require(URL(string: "\(url.absoluteString)/nowhere"))))
            #expect(missing.status == 404)
        }
        await client.shutdown()

        let echo = try #require(log.entries(path: "/echo").first)
        #expect(echo.method == "POST")
        #expect(echo.status == 201)
        #expect(echo.query == [NamedValue("token", "<redacted>"), NamedValue("state", "s1")])
        #expect(echo.header("authorization") == "Bearer <redacted>")
        #expect(echo.header("X-Other") == nil)
        #expect(echo.arguments == "client_id=app&client_secret=<redacted>&code=<redacted>")

        let json = try #require(log.entries(path: "/json").first)
        #expect(json.arguments == #"{"path":"/x"}"#, "the Dropbox-API-Arg header wins over the body")
        #expect(json.header("Dropbox-API-Arg") == #"{"path":"/x"}"#)
        #expect(log.entries(path: "/nowhere").first?.status == 404)

        let text = log.description
        for secret in secrets {
            #expect(!text.contains(secret), "\(secret)")
        }
    }
}
