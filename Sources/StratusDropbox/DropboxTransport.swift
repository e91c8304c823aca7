import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP
import StratusOAuth

/// Sends Dropbox API requests: RPC (JSON body), upload and download (JSON in
/// `Dropbox-API-Arg`), with authorization, retries and error mapping.
struct DropboxTransport: Sendable {
    /// Which Dropbox host a route lives on.
    enum Host: Sendable {
        case api, content
        /// The long-poll host, whose route takes no `Authorization` (the cursor is the
        /// credential), so no token is ever sent there.
        case notify
    }

    let http: StratusHTTPClient
    let credentials: DropboxCredentials
    let configuration: DropboxConfiguration

    /// The URL of a route, such as `files/upload` on the content host.
    func url(_ host: Host, _ route: String) -> URL {
        let base =
            switch host {
            case .api: configuration.apiURL
            case .content: configuration.contentURL
            case .notify: configuration.notifyURL
            }
        return base.appending(path: "2/" + route)
    }

    /// Sends a request and returns a 2xx or 409 answer; every other status, and transport
    /// failures, are thrown as ``/Stratus/ServiceError`` after the retries `repetition` allows
    /// (`Repetition.never` inside a caller's own loop, such as
    /// ``DropboxService/writeOnce(done:_:)``). Requests to the notify host go without
    /// credentials.
    /// - Parameters:
    ///   - hold: For a request the server holds on purpose (a long poll), how long it may take,
    ///     which replaces the client's stall timeout for it.
    ///   - contentSizeLimit: The most a download's content may hold.
    func send(
        route: String,
        host: Host,
        headerArgument: StoneValue? = nil,
        jsonArgument: StoneValue? = nil,
        uploadBody: HTTPRequestBody? = nil,
        destination: HTTPResponseDestination = .memory(limit: 16 * 1_048_576),
        responseDigests: Set<HashAlgorithm> = [],
        repetition: Repetition,
        hold: Duration? = nil,
        contentSizeLimit: ContentSizeLimit? = nil,
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws -> StratusHTTPResponse {
        var request = StratusHTTPRequest(method: .post, url: url(host, route), responseDigests: responseDigests)
        request.contentSizeLimit = contentSizeLimit
        // Dropbox reads through POST too; only those may be resent by libcurl on a stale connection.
        request.isIdempotent = repetition == .safe
        if let hold {
            request.stallTimeout = hold
            request.totalTimeout = hold
        }
        if let headerArgument {
            request.headers.set("Dropbox-API-Arg", headerArgument.json(asciiOnly: true))
        }
        if let jsonArgument {
            request.headers.set("Content-Type", "application/json")
            request.body = .bytes(jsonArgument.bodyData)
        } else if let uploadBody {
            request.headers.set("Content-Type", "application/octet-stream")
            request.body = uploadBody
        }
        return try await credentials.send(
            { [request] in request }, origins: [configuration.apiURL, configuration.contentURL], http: http,
            into: destination, action: "The request to \(route)", progress: progress, authorizes: host != .notify,
            retryPolicy: configuration.retryPolicy, repetition: repetition
        ) { response, secrets in
            let error = DropboxErrorMapping.error(
                status: response.status, headers: response.headers, body: response.body, route: route,
                secrets: secrets)
            // A route's own error (409) is the caller's to read, unless it is a rate limit.
            return response.status == 409 && error.code != .rateLimited ? nil : error
        }
    }

    /// Calls an RPC route with a JSON argument and decodes its JSON result.
    func rpc<Result: Decodable & Sendable>(
        _ route: String,
        _ argument: StoneValue,
        as type: Result.Type,
        repetition: Repetition = .safe
    ) async throws -> Result {
        try await rpcWithResponse(route, argument, as: type, repetition: repetition).result
    }

    /// Calls an RPC route and decodes its JSON result, keeping the answer for its headers. A
    /// safe call whose answer cannot be read is asked once more (an answer damaged on the way
    /// rarely is twice), within the retry policy's attempts.
    func rpcWithResponse<Result: Decodable & Sendable>(
        _ route: String,
        _ argument: StoneValue,
        as type: Result.Type,
        repetition: Repetition = .safe,
        host: Host = .api,
        hold: Duration? = nil
    ) async throws -> (result: Result, response: StratusHTTPResponse) {
        try await configuration.retryPolicy.run(repetition) { _ in
            let response = try await send(
                route: route, host: host, jsonArgument: argument, repetition: .never, hold: hold)
            try await check(response, route: route)
            return response
        } read: { response in
            (try DropboxTransport.decode(type, from: response.body, route: route), response)
        }
    }

    /// Sends an upload request that is safe to repeat (a session's start) and decodes its JSON
    /// result; an answer that cannot be read is asked for once more, as for RPC calls.
    func safeUpload<Result: Decodable & Sendable>(
        _ route: String,
        headerArgument: StoneValue,
        body: HTTPRequestBody,
        as type: Result.Type,
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws -> Result {
        try await configuration.retryPolicy.run(.safe) { _ in
            let response = try await send(
                route: route, host: .content, headerArgument: headerArgument, uploadBody: body, repetition: .never,
                progress: progress)
            try await check(response, route: route)
            return response
        } read: { response in
            try DropboxTransport.decode(type, from: response.body, route: route)
        }
    }

    /// Throws the mapped error for a non-2xx answer, with the credentials' secrets scrubbed from
    /// whatever text of the server it quotes.
    func check(_ response: StratusHTTPResponse, route: String) async throws {
        guard !response.isSuccess else { return }
        throw DropboxErrorMapping.error(
            status: response.status, headers: response.headers, body: response.body, route: route,
            secrets: await credentials.knownSecrets()
        )
    }

    /// Decodes a JSON result; anything unreadable is ``/Stratus/ServiceError/Code/invalidResponse``
    /// naming the route.
    static func decode<Result: Decodable>(_ type: Result.Type, from data: Data, route: String) throws -> Result {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw DropboxErrorMapping.undecodable(route: route, "\(error)")
        }
    }
}
