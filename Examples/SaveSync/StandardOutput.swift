// Only the C library here: with Foundation imported too, `stdout` would be read as the
// non-Sendable global Foundation re-exports, which Swift 6 refuses.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// This process's standard output.
enum StandardOutput {
    /// Makes standard output line-buffered, as it is on a terminal, also when it is a pipe or a
    /// file (where the C library would hold it until 4 KiB or the exit): a script that drives
    /// `live` sees each line when it is printed. Call it before anything is printed.
    static func makeLineBuffered() {
        // `stdout` is read once, before any task of this process prints.
        setvbuf(stdout, nil, _IOLBF, 0)
    }
}
