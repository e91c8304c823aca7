import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChildServer {
    /// A loopback port that was free a moment ago: bound with port 0 (the OS picks it), read
    /// back, released. For servers that take no port 0 (Apache httpd, Ceph); another process
    /// can take the port before the server binds it, so their launchers try again with a new
    /// one when the server says it was taken.
    /// - Throws: ``Failure`` when no socket can be bound.
    public static func freeLoopbackPort() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw Failure(reason: "no socket for a free loopback port") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(reason: "no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
