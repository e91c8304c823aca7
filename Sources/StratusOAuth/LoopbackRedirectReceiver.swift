public import Foundation
public import Logging
import Stratus
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Receives the browser's redirect at the end of a sign-in on `http://127.0.0.1:PORT/callback`
/// (RFC 8252 §7.3), so a desktop or command-line app needs no web server.
///
/// ```swift
/// let receiver = try LoopbackRedirectReceiver()
/// let pending = try client.makeAuthorization(redirectURI: receiver.redirectURI, scopes: scopes)
/// // open pending.url in a browser
/// let code = try await receiver.waitForCode(state: pending.state, timeout: .seconds(300))
/// ```
///
/// The socket is bound to 127.0.0.1 only, when the receiver is created, so the port is known
/// before the browser opens. One receiver serves one sign-in: ``waitForCode(state:timeout:)``
/// closes the socket when it returns, on every path.
///
/// What the receiver answers:
/// - the callback with the expected `state` and a `code`: a page saying sign-in is done, and the
///   code is returned;
/// - the callback with the expected `state` and an `error` (`access_denied` when the user
///   declined): a page saying so, and a typed error is thrown;
/// - the callback with a missing or different `state`: a page saying the response does not
///   belong to this sign-in, and the receiver **keeps waiting**. Any local program or web page
///   can send a request to a loopback port; if a wrong `state` ended the wait, a stale browser
///   tab or a hostile page could abort a real sign-in. The timeout still bounds the wait.
/// - anything else (another path such as `/favicon.ico`, another method, a request head over
///   8 KiB, a client that sends nothing for 10 seconds): a short error page, and it keeps waiting.
public final class LoopbackRedirectReceiver: Sendable {
    /// The port the socket is bound to.
    public let port: Int
    /// The callback path, `/callback` by default.
    public let path: String
    /// The redirect URI to register with the provider and put in the authorization URL:
    /// `http://127.0.0.1:PORT/callback`.
    public let redirectURI: URL

    private let listener: Mutex<Int32?>
    private let logger: Logger

    /// The largest request head (request line and header fields) read.
    static let headLimit = 8 * 1024
    /// How long one connection may take to send its request head.
    static let connectionTimeout: Duration = .seconds(10)

    /// Binds a socket on 127.0.0.1 and starts listening.
    /// - Parameters:
    ///   - port: The port, or 0 (the usual choice) for one the system picks. Google accepts any
    ///     port on a loopback redirect URI; Dropbox wants the exact URI registered in the app
    ///     console, so a Dropbox app usually picks a fixed port.
    ///   - path: The callback path.
    ///   - logger: Where to log; no code, state or secret is logged.
    /// - Throws: ``/Stratus/ServiceError`` with code `invalidConfiguration` when the port is out
    ///   of range or taken, `localFile` when no socket can be made.
    public init(
        port: Int = 0,
        path: String = "/callback",
        logger: Logger = Logger(label: "stratus.oauth.loopback", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        guard (0...65_535).contains(port) else {
            throw ServiceError(.invalidConfiguration, "The redirect port \(port) is not between 0 and 65535.")
        }
        let path = path.hasPrefix("/") ? path : "/" + path
        let descriptor = try Socket.makeListener(port: port)
        let boundPort = Socket.localPort(descriptor)
        guard boundPort > 0, let uri = URL(string: "http://127.0.0.1:\(boundPort)\(path)") else {
            Socket.closeDescriptor(descriptor)
            throw ServiceError(.invalidConfiguration, "The redirect path \(path) cannot be part of a URL.")
        }
        self.port = boundPort
        self.path = path
        self.redirectURI = uri
        self.listener = Mutex(descriptor)
        self.logger = logger
        logger.debug("Loopback redirect receiver listening", metadata: ["redirect_uri": "\(uri)"])
    }

    deinit {
        close()
    }

    /// Stops listening without waiting; a later ``waitForCode(state:timeout:)`` fails.
    public func close() {
        if let descriptor = listener.withLock({ descriptor in
            defer { descriptor = nil }
            return descriptor
        }) {
            Socket.closeDescriptor(descriptor)
        }
    }

    /// Waits for the redirect that carries `state`, and returns its authorization code.
    ///
    /// The waiting happens on a thread of its own, so it blocks no task; cancelling the calling
    /// task ends it within milliseconds. The socket is closed when this returns, whatever the
    /// outcome.
    /// - Parameters:
    ///   - state: The `state` of the sign-in in progress (``PendingAuthorization/state``).
    ///   - timeout: How long to wait for the browser.
    /// - Returns: The authorization code.
    /// - Throws: ``/Stratus/ServiceError``: `permissionDenied` when the user declined
    ///   (`error=access_denied`), `invalidConfiguration` or `server` for other errors the
    ///   provider redirected with, `timeout` when nothing valid arrived in time, `cancelled` when
    ///   the task was cancelled, `invalidConfiguration` when the receiver was already used.
    public func waitForCode(state: String, timeout: Duration = .seconds(300)) async throws -> String {
        guard
            let descriptor = listener.withLock({ descriptor in
                defer { descriptor = nil }
                return descriptor
            })
        else {
            throw ServiceError(
                .invalidConfiguration,
                "This redirect receiver was already used or closed; create a new one for each sign-in.")
        }
        let wake: WakePipe
        do {
            wake = try WakePipe()
        } catch {
            Socket.closeDescriptor(descriptor)
            throw error
        }
        let session = RedirectSession(
            listener: descriptor,
            wake: wake.readEnd,
            path: path,
            expectedState: state,
            deadline: .now + timeout,
            timeout: timeout,
            redirectURI: redirectURI,
            logger: logger
        )
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<String, ServiceError>, Never>) in
                let thread = Thread {
                    let result = session.run()
                    Socket.closeDescriptor(descriptor)
                    continuation.resume(returning: result)
                }
                thread.name = "stratus.oauth.loopback"
                thread.start()
            }
        } onCancel: {
            wake.signal()
        }
        wake.close()
        return try outcome.get()
    }
}

/// A pipe whose write end wakes the receiver's `poll` when the waiting task is cancelled.
private final class WakePipe: Sendable {
    private let ends: Mutex<(read: Int32, write: Int32)?>
    let readEnd: Int32

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw ServiceError(.localFile, "Could not create a pipe: \(String(cString: strerror(errno))).")
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        readEnd = descriptors[0]
        ends = Mutex((descriptors[0], descriptors[1]))
    }

    func signal() {
        ends.withLock { ends in
            guard let ends else { return }
            var byte: UInt8 = 1
            _ = write(ends.write, &byte, 1)
        }
    }

    func close() {
        ends.withLock { ends in
            guard let open = ends else { return }
            Socket.closeDescriptor(open.read)
            Socket.closeDescriptor(open.write)
            ends = nil
        }
    }
}
