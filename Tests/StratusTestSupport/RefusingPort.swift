import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses connections for as long as `body` runs: a socket is bound to it
/// and never listens, so a connection gets ECONNREFUSED, and no server of the test process can
/// be given the port meanwhile (a port that was merely released, or a stopped server's, can be
/// handed to the next server that asks the OS for port 0).
/// - Parameter body: Gets the port.
/// - Returns: What `body` returns.
/// - Throws: `RefusingPortUnavailable` when no socket can be bound; what `body` throws.
public func withRefusingPort<Result>(_ body: (Int) async throws -> Result) async throws -> Result {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RefusingPortUnavailable() }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw RefusingPortUnavailable() }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}

/// No loopback socket could be bound for ``withRefusingPort(_:)``.
public struct RefusingPortUnavailable: Error {}
