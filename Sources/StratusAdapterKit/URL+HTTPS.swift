public import Foundation

extension URL {
    /// `https://<host><path>`, the URL of one of a provider's fixed hosts, such as
    /// `https://graph.microsoft.com/v1.0`: made without a force unwrap, for an adapter's default
    /// endpoints.
    /// - Parameters:
    ///   - host: A plain host name, such as `graph.microsoft.com`.
    ///   - path: The path, empty or starting with `/`, such as `/v1.0`.
    /// - Returns: The URL; `file:///` only for a host or path no URL can hold, which an adapter's
    ///   fixed names never are.
    public static func https(host: String, path: String = "") -> URL {
        var components = URLComponents()
        components.scheme = "https"
        components.host = host
        components.path = path
        return components.url ?? URL(filePath: "/")
    }
}
