import Foundation
import Stratus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX socket calls of the receiver.
enum Socket {
    /// A non-blocking TCP socket listening on 127.0.0.1:`port`.
    static func makeListener(port: Int) throws -> Int32 {
        let descriptor = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else {
            throw ServiceError(.localFile, "Could not create a socket: \(String(cString: strerror(errno))).")
        }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let error = errno
            close(descriptor)
            let reason = String(cString: strerror(error))
            let code: ServiceError.Code = error == EADDRINUSE || error == EACCES ? .invalidConfiguration : .localFile
            throw ServiceError(code, "Could not listen on 127.0.0.1:\(port) for the sign-in redirect: \(reason).")
        }
        return descriptor
    }

    /// The port a socket is bound to, or 0.
    static func localPort(_ descriptor: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return result == 0 ? Int(UInt16(bigEndian: address.sin_port)) : 0
    }

    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }
}
