package import Foundation

/// The origin of a URL (RFC 6454): scheme, host and port, with the scheme's default port filled
/// in, compared without regard to case. Credentials go only to the origin they were configured
/// for; a URL a server hands out (a resumable session in `Location`) is followed only when its
/// origin is that of the configured URL.
package struct URLOrigin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower-cased.
    package let scheme: String
    /// The host, lower-cased, without IPv6 brackets.
    package let host: String
    /// The port, or the scheme's default one.
    package let port: Int

    /// The origin of an `http` or `https` URL with a host; `nil` for any other URL.
    package init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: false)?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `scheme://host:port`.
    package var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Whether two URLs have one origin (false when either has none).
    package static func same(_ first: URL, _ second: URL) -> Bool {
        guard let one = URLOrigin(first), let other = URLOrigin(second) else { return false }
        return one == other
    }
}
