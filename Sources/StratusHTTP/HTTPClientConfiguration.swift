public import Foundation
public import Logging

extension StratusHTTPClient {
    /// How an ``StratusHTTPClient`` connects, times out and trusts servers. Every field has a default.
    public struct Configuration: Sendable {
        /// Time limits.
        public struct Timeouts: Sendable {
            /// The longest a connection (TCP and TLS) may take to establish.
            public var connect: Duration
            /// The longest no byte may move in either direction once a request started, or
            /// `nil` for no limit. A transfer paused because the caller reads slowly does not
            /// count as stalled.
            public var stall: Duration?
            /// The longest a whole request may take, or `nil` for no limit (large transfers
            /// should rely on ``stall`` instead).
            public var total: Duration?

            /// Creates time limits.
            public init(connect: Duration = .seconds(10), stall: Duration? = .seconds(30), total: Duration? = nil) {
                self.connect = connect
                self.stall = stall
                self.total = total
            }
        }

        /// Which certificates the client trusts. Peer verification is always on.
        public enum TrustRoots: Sendable {
            /// The system's certificate store.
            case system
            /// Only the CA certificates in this PEM file (for test servers).
            case caFile(URL)
            /// Only the CA certificates in these PEM bytes (for test servers).
            case caPEM(Data)
        }

        /// Whether redirects are followed.
        public enum Redirects: Sendable {
            /// A 3xx answer is returned to the caller as it is.
            case disallow
            /// Up to `maximum` redirects to `http` or `https` URLs are followed. An
            /// `Authorization` header is never sent to a different host or port.
            case follow(maximum: Int)
        }

        /// Time limits.
        public var timeouts: Timeouts
        /// Which certificates to trust.
        public var trustRoots: TrustRoots
        /// Whether redirects are followed.
        public var redirects: Redirects
        /// The size of libcurl's receive buffer per transfer, in bytes.
        public var bufferSize: Int
        /// The size of libcurl's send buffer per transfer, in bytes. libcurl's own 64 KiB was the
        /// fastest for uploads in the benchmark; larger buffers cost throughput.
        public var uploadBufferSize: Int
        /// The most connections to one host at once, or `nil` for no limit. Requests beyond it
        /// wait for a free connection; over HTTP/1.1 a request the server holds open (a long
        /// poll) keeps its connection for the whole hold, so a limit can make others wait behind
        /// it.
        public var maximumConnectionsPerHost: Int?
        /// How much of a streamed response the client holds before pausing the transfer.
        public var streamBufferSize: Int
        /// How much of an error answer's body is kept when the body goes to a file.
        public var errorBodyLimit: Int
        /// The `User-Agent` header sent when a request has none.
        public var userAgent: String
        /// Where the client logs requests (at `trace` and `debug` levels), with secrets redacted.
        public var logger: Logger
        /// The request body size, in bytes, from which a request is sent with
        /// `Expect: 100-continue`, or `nil` to never send it. Default: 1 MiB.
        ///
        /// With the field, the client sends the request head, waits for the server's
        /// `100 Continue` (at most ``expectContinueTimeout``) and only then the body, so a server
        /// that refuses the request anyway (a missing folder, a failed precondition, an expired
        /// token, a full quota) answers before a large body travels: a 64 MiB upload into a
        /// missing folder then costs one round trip instead of 64 MiB. Smaller bodies go out at
        /// once and without the field, since the wait would cost a round trip for little saved.
        /// A body of unknown length (a stream) counts as large. 1 MiB is libcurl's own
        /// threshold.
        public var expectContinueThreshold: Int64?
        /// The longest the client waits for `100 Continue` before sending the body anyway, for
        /// servers that ignore the field. Default: 1 second, libcurl's default. The wait is
        /// capped at half of ``Timeouts-swift.struct/stall``, so it never counts as a stall.
        public var expectContinueTimeout: Duration
        /// The name of the client's transfer thread, as `ps` and `/proc` show it (Linux keeps
        /// the first 15 bytes). Default `stratus.http.curl`. libcurl's own helper threads, such
        /// as its resolver's, inherit it.
        public var threadName = "stratus.http.curl"

        /// Creates a configuration; each parameter sets the field of the same name.
        public init(
            timeouts: Timeouts = Timeouts(),
            trustRoots: TrustRoots = .system,
            redirects: Redirects = .disallow,
            bufferSize: Int = 256 * 1024,
            uploadBufferSize: Int = 64 * 1024,
            maximumConnectionsPerHost: Int? = nil,
            streamBufferSize: Int = 1024 * 1024,
            errorBodyLimit: Int = 1024 * 1024,
            userAgent: String = "Stratus/0.1",
            logger: Logger = Logger(label: "stratus.http", factory: { _ in SwiftLogNoOpLogHandler() }),
            expectContinueThreshold: Int64? = 1024 * 1024,
            expectContinueTimeout: Duration = .seconds(1)
        ) {
            self.timeouts = timeouts
            self.trustRoots = trustRoots
            self.redirects = redirects
            self.bufferSize = bufferSize
            self.uploadBufferSize = uploadBufferSize
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.streamBufferSize = streamBufferSize
            self.errorBodyLimit = errorBodyLimit
            self.userAgent = userAgent
            self.logger = logger
            self.expectContinueThreshold = expectContinueThreshold
            self.expectContinueTimeout = expectContinueTimeout
        }
    }
}
