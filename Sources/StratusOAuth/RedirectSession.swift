import Foundation
import Logging
import Stratus
import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One wait of a ``LoopbackRedirectReceiver``: accepts connections one at a time on its own
/// thread until a request with the expected `state` arrives, the deadline passes, or the wake
/// pipe says the task was cancelled.
struct RedirectSession: Sendable {
    let listener: Int32
    let wake: Int32
    let path: String
    let expectedState: String
    let deadline: ContinuousClock.Instant
    let timeout: Duration
    let redirectURI: URL
    let logger: Logger

    private enum Wait { case ready, timedOut, cancelled }
    private enum Handling {
        case keepWaiting
        case finished(Result<String, ServiceError>)
    }

    /// Runs the accept loop; blocks the calling thread.
    func run() -> Result<String, ServiceError> {
        while true {
            switch wait(for: listener, events: POLLIN, until: deadline) {
            case .cancelled: return .failure(cancelled)
            case .timedOut: return .failure(timedOut)
            case .ready: break
            }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            // Close on exec and non-blocking, as the listener is (accept4 is not visible here).
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            let handling = handle(client)
            Socket.closeDescriptor(client)
            if case .finished(let result) = handling { return result }
        }
    }

    // MARK: One connection

    private func handle(_ client: Int32) -> Handling {
        let connectionDeadline = min(deadline, .now + LoopbackRedirectReceiver.connectionTimeout)
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while Self.endOfHead(in: head) == nil && head.count <= LoopbackRedirectReceiver.headLimit {
            switch wait(for: client, events: POLLIN, until: connectionDeadline) {
            case .cancelled: return .finished(.failure(cancelled))
            case .timedOut:
                return ContinuousClock.now >= deadline
                    ? .finished(.failure(timedOut)) : ignored("client sent no request in time")
            case .ready: break
            }
            let count = SystemCall.retryingOnInterrupt {
                chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            }
            if count == 0 { return ignored("client closed the connection") }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                return ignored("read failed")
            }
            head.append(contentsOf: chunk[0..<count])
        }
        if let end = Self.endOfHead(in: head), end <= LoopbackRedirectReceiver.headLimit {
            return respond(to: head, on: client)
        }
        reply(client, status: "431 Request Header Fields Too Large", page: .tooLarge)
        discardRest(of: client)
        return ignored("request head too large")
    }

    private func respond(to head: [UInt8], on client: Int32) -> Handling {
        let lineEnd = head.firstIndex(of: UInt8(ascii: "\r")) ?? head.endIndex
        let parts = String(decoding: head[..<lineEnd], as: UTF8.self).split(
            separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
            reply(client, status: "400 Bad Request", page: .notUnderstood)
            return ignored("malformed request line")
        }
        guard parts[0] == "GET" else {
            reply(client, status: "405 Method Not Allowed", page: .notUnderstood)
            return ignored("method \(parts[0])")
        }
        guard let target = URLComponents(string: String(parts[1])), target.path == path else {
            reply(client, status: "404 Not Found", page: .notFound)
            // The path alone: a query may carry a code.
            return ignored("path \(String(parts[1].prefix { $0 != "?" }).prefix(100))")
        }
        let items = target.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }

        guard let state = value("state"), Self.constantTimeEqual(state, expectedState) else {
            reply(client, status: "400 Bad Request", page: .wrongState)
            return ignored("state missing or not the one of this sign-in")
        }
        if let error = value("error") {
            reply(client, status: "403 Forbidden", page: error == "access_denied" ? .denied : .failed)
            logger.debug("Authorization failed in the browser", metadata: ["error": "\(error.prefix(64))"])
            return .finished(.failure(Self.authorizationError(error, description: value("error_description"))))
        }
        guard let code = value("code"), !code.isEmpty else {
            reply(client, status: "400 Bad Request", page: .notUnderstood)
            return ignored("callback without code or error")
        }
        reply(client, status: "200 OK", page: .signedIn)
        logger.debug("Authorization code received", metadata: ["redirect_uri": "\(redirectURI)"])
        return .finished(.success(code))
    }

    private func ignored(_ reason: String) -> Handling {
        logger.debug("Loopback receiver ignored a request and keeps waiting", metadata: ["reason": "\(reason)"])
        return .keepWaiting
    }

    /// The error for an `error=` redirect (RFC 6749 §4.1.2.1).
    static func authorizationError(_ error: String, description: String?) -> ServiceError {
        let error = String(error.prefix(64))
        let detail = description.map { ": " + $0.prefix(200) } ?? ""
        switch error {
        case "access_denied":
            return ServiceError(
                .permissionDenied,
                "Access was denied in the browser\(detail). Nothing was granted; start the sign-in again and choose Allow to continue.",
                providerError: error
            )
        case "server_error", "temporarily_unavailable":
            return ServiceError(
                .server, "The provider could not complete the sign-in (\(error))\(detail); try again later.",
                providerError: error)
        default:
            return ServiceError(
                .invalidConfiguration,
                "The provider refused the sign-in request (\(error))\(detail); check the client ID, redirect URI and scopes.",
                providerError: error
            )
        }
    }

    // MARK: Socket plumbing

    private func wait(for descriptor: Int32, events: Int32, until deadline: ContinuousClock.Instant) -> Wait {
        while true {
            let remaining = deadline - .now
            if remaining <= .zero { return .timedOut }
            let milliseconds = Int32(min(remaining.timeInterval * 1000 + 1, 60_000))
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(events), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let ready = SystemCall.retryingOnInterrupt { poll(&descriptors, 2, milliseconds) }
            if ready < 0 { return .cancelled }
            if descriptors[1].revents != 0 { return .cancelled }
            if descriptors[0].revents != 0 { return .ready }
        }
    }

    private func reply(_ client: Int32, status: String, page: RedirectPage) {
        let body = Array(page.html.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        let sendDeadline = ContinuousClock.now + .seconds(2)
        var offset = 0
        while offset < bytes.count {
            let sent = SystemCall.retryingOnInterrupt {
                bytes.withUnsafeBytes { send(client, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                guard case .ready = wait(for: client, events: POLLOUT, until: sendDeadline) else { return }
            } else {
                return
            }
        }
    }

    /// Reads what the client is still sending, briefly, so closing the socket does not reset
    /// the connection before the client has read the answer.
    private func discardRest(of client: Int32) {
        _ = shutdown(client, Int32(SHUT_WR))
        let until = min(deadline, .now + .milliseconds(250))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case .ready = wait(for: client, events: POLLIN, until: until) {
            let count = SystemCall.retryingOnInterrupt {
                chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            }
            if count == 0 || (count < 0 && errno != EAGAIN) { return }
        }
    }

    private var cancelled: ServiceError {
        ServiceError(.cancelled, "The sign-in was cancelled while waiting for the browser.")
    }

    private var timedOut: ServiceError {
        ServiceError(.timeout, "No sign-in response reached \(redirectURI) within \(timeout); start the sign-in again.")
    }

    static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
