import BenchmarkSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The child side of an HTTP CONNECT proxy (`child proxy PORT`) that tunnels every CONNECT,
/// whatever host it names, to `127.0.0.1:PORT`: how rclone, whose Dropbox backend only talks to
/// `api.dropboxapi.com`, `content.dropboxapi.com` and `notify.dropboxapi.com`, reaches the mock
/// without a hosts entry (`HTTPS_PROXY` in rclone's environment). TLS runs end to end between
/// the client and the mock; the proxy only copies bytes, one thread per direction.
///
/// It listens on a free port of 127.0.0.1, prints `port=N` and serves until it is signalled.
enum ConnectProxy {
    /// The longest request head read before the tunnel starts.
    private static let headLimit = 16 * 1024

    static func serve(targetPort: UInt16) throws -> Never {
        signal(SIGPIPE, SIG_IGN)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchmarkFailure("proxy: socket failed (errno \(errno))") }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            throw BenchmarkFailure("proxy: cannot listen on 127.0.0.1 (errno \(errno))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        // Written straight to the descriptor: the parent polls the file for it.
        FileHandle.standardOutput.write(Data("port=\(UInt16(bigEndian: address.sin_port))\n".utf8))
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                throw BenchmarkFailure("proxy: accept failed (errno \(errno))")
            }
            Thread.detachNewThread { tunnel(client, to: targetPort) }
        }
    }

    /// Reads the CONNECT head, connects to the target, answers 200 and copies bytes both ways
    /// until both sides have closed.
    private static func tunnel(_ client: Int32, to port: UInt16) {
        defer { close(client) }
        noDelay(client)
        guard let (head, rest) = readHead(client), head.hasPrefix("CONNECT ") else {
            writeAll(client, Array("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n".utf8))
            return
        }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard upstream >= 0 else { return }
        defer { close(upstream) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            writeAll(client, Array("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n".utf8))
            return
        }
        noDelay(upstream)
        guard writeAll(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)),
            rest.isEmpty || writeAll(upstream, rest)
        else { return }
        let back = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pump(from: upstream, to: client)
            back.signal()
        }
        pump(from: client, to: upstream)
        back.wait()
    }

    /// The request head up to its blank line, and whatever bytes came after it.
    private static func readHead(_ socket: Int32) -> (String, [UInt8])? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while received.count < headLimit {
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            received += buffer[0..<count]
            if let range = received.firstRange(of: end) {
                return (
                    String(decoding: received[..<range.lowerBound], as: UTF8.self), Array(received[range.upperBound...])
                )
            }
        }
        return nil
    }

    /// Copies until `source` ends, then ends `destination`'s writing side.
    private static func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0, writeAll(destination, Array(buffer[0..<count])) else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
    }

    @discardableResult
    private static func writeAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(socket, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    private static func noDelay(_ socket: Int32) {
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
