import StratusFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `bytes` to a file descriptor, going on after partial writes and interrupted
/// calls (the file sinks' one write loop).
/// - Returns: `true`, or `false` with `errno` telling why.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = SystemCall.retryingOnInterrupt {
            write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
        }
        if written < 0 { return false }
        offset += written
    }
    return true
}
