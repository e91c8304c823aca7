import Foundation
import Stratus
import StratusHTTP
import Testing

@testable import StratusDropbox

/// The status and tag → ``ServiceError/Code`` table.
@Suite struct ErrorMappingTests {
    private func map(_ status: Int, _ body: String, headers: StratusHTTPHeaders = [:]) -> ServiceError {
        DropboxErrorMapping.error(
            status: status, headers: headers, body: Data(body.utf8), route: "files/test", secrets: [])
    }

    private func conflictBody(_ error: String) -> String {
        #"{"error_summary":"summary/..","error":"# + error + "}"
    }

    static let endpointCases: [(String, ServiceError.Code)] = [
        (#"{".tag":"path","path":{".tag":"not_found"}}"#, .notFound),
        (#"{".tag":"path_lookup","path_lookup":{".tag":"not_found"}}"#, .notFound),
        (#"{".tag":"path","path":{".tag":"not_file"}}"#, .notFound),
        (
            #"{".tag":"path","reason":{".tag":"conflict","conflict":{".tag":"file"}},"upload_session_id":"s"}"#,
            .conflict
        ),
        (#"{".tag":"path","reason":{".tag":"conflict","conflict":{".tag":"folder"}}}"#, .conflict),
        (#"{".tag":"path","reason":{".tag":"insufficient_space"}}"#, .quotaExceeded),
        (#"{".tag":"path","reason":{".tag":"malformed_path","malformed_path":"bad"}}"#, .invalidPath),
        (#"{".tag":"path","reason":{".tag":"disallowed_name"}}"#, .invalidPath),
        (#"{".tag":"payload_too_large"}"#, .payloadTooLarge),
        (#"{".tag":"content_hash_mismatch"}"#, .integrityMismatch),
        (#"{".tag":"reset"}"#, .invalidChangeToken),
        (#"{".tag":"too_many_write_operations"}"#, .rateLimited),
        (#"{".tag":"path_write","path_write":{".tag":"no_write_permission"}}"#, .permissionDenied),
        (#"{".tag":"invalid_revision"}"#, .notFound),
        (#"{".tag":"something_new"}"#, .server),
    ]

    @Test(arguments: 0..<endpointCases.count)
    func endpointErrors(_ index: Int) {
        let (error, code) = Self.endpointCases[index]
        let mapped = map(409, conflictBody(error))
        #expect(mapped.code == code)
        #expect(mapped.httpStatus == 409)
        #expect(mapped.providerError == "summary/..")
        #expect(mapped.message.contains("files/test"))
    }

    @Test func badInputIsAStratusBug() {
        let error = map(400, "Error in call to API function \"files/upload\": bad header")
        #expect(error.code == .invalidResponse)
        #expect(error.message.contains("bug in Stratus"))
    }

    @Test func badInputAboutTheCursorOfAFeedRouteIsARefusedToken() {
        for route in ["files/list_folder/continue", "files/list_folder/longpoll"] {
            let body = "Error in call to API function \"\(route)\": request body: cursor: Invalid cursor"
            let error = DropboxErrorMapping.error(
                status: 400, headers: [:], body: Data(body.utf8), route: route, secrets: [])
            #expect(error.code == .invalidChangeToken, "\(route)")
        }
        // The same words on another route, and other bad input on a feed route, stay bugs.
        let elsewhere = DropboxErrorMapping.error(
            status: 400, headers: [:], body: Data("cursor: Invalid cursor".utf8),
            route: "files/upload_session/append_v2",
            secrets: [])
        #expect(elsewhere.code == .invalidResponse)
        let other = DropboxErrorMapping.error(
            status: 400, headers: [:], body: Data("request body: timeout: expected integer".utf8),
            route: "files/list_folder/longpoll", secrets: [])
        #expect(other.code == .invalidResponse)
    }

    @Test func authErrors() {
        #expect(
            map(
                401,
                #"{"error_summary":"missing_scope/..","error":{".tag":"missing_scope","required_scope":"files.content.write"}}"#
            ).code == .unauthorized)
        #expect(
            map(403, #"{"error_summary":"no_permission/..","error":{".tag":"no_permission"}}"#).code
                == .permissionDenied)
    }

    @Test func rateLimits() {
        let body = map(
            429,
            #"{"error_summary":"too_many_requests/..","error":{"reason":{".tag":"too_many_requests"},"retry_after":7}}"#
        )
        #expect(body.code == .rateLimited)
        #expect(body.retryAfter == .seconds(7))
        let header = map(429, "", headers: ["Retry-After": "3"])
        #expect(header.retryAfter == .seconds(3))
        #expect(map(429, "").retryAfter == .seconds(1))
    }

    @Test func serverAndUnknown() {
        #expect(map(500, "oops").code == .server)
        #expect(map(503, "").code == .server)
        #expect(map(409, "not json").code == .invalidResponse)
        #expect(map(418, "").code == .invalidResponse)
    }
}
