/// Stops the process when a libcrypto call that cannot fail on a working installation fails.
///
/// Only use it for calls whose failure no caller input and no server response can cause: fetching
/// a built-in algorithm from the default provider, allocating a context, or feeding and finishing
/// a context this module set up correctly. Such a failure means libcrypto itself is broken or
/// misconfigured (for example out of memory, or a provider configuration that drops SHA-256).
/// Carrying on would hand out a wrong digest, which is worse than stopping.
/// - Parameters:
///   - succeeded: Whether the call succeeded.
///   - operation: The libcrypto call, for the crash message.
func requireLibcrypto(_ succeeded: Bool, _ operation: @autoclosure () -> String) {
    if !succeeded {
        libcryptoIsBroken(operation())
    }
}

/// Stops the process with a message naming the libcrypto call that failed and OpenSSL's own errors.
///
/// See ``requireLibcrypto(_:_:)`` for when this is acceptable.
/// - Parameter operation: The libcrypto call that failed.
func libcryptoIsBroken(_ operation: String) -> Never {
    let reason = OpenSSLErrorQueue.drain() ?? "no OpenSSL error recorded"
    preconditionFailure(
        "StratusDigest: libcrypto call \(operation) failed (\(reason)); the OpenSSL installation is broken")
}
