import COpenSSL

/// Reads OpenSSL's per-thread error queue, which libcrypto fills when a call fails.
enum OpenSSLErrorQueue {
    /// Empties the calling thread's error queue and returns its entries as text.
    ///
    /// Call it on the same thread, straight after the failing libcrypto call.
    /// - Returns: The entries joined by "; ", oldest first, or `nil` if the queue was empty.
    static func drain() -> String? {
        var entries: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 {
                break
            }
            entries.append(text(for: code))
        }
        return entries.isEmpty ? nil : entries.joined(separator: "; ")
    }

    /// OpenSSL's human-readable text for one error code.
    private static func text(for code: UInt) -> String {
        // ERR_error_string_n always NUL-terminates within the given length.
        let capacity = 256
        var buffer = [CChar](repeating: 0, count: capacity)
        buffer.withUnsafeMutableBufferPointer { storage in
            ERR_error_string_n(code, storage.baseAddress, capacity)
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
