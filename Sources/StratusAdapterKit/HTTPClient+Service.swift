import Stratus
public import StratusHTTP

extension StratusHTTPClient {
    /// The client an adapter's service uses: the one its caller gave, or a new one.
    /// - Parameters:
    ///   - given: The caller's client, if any.
    ///   - service: The service's name for messages, such as "Dropbox".
    /// - Returns: `given`, or a new client with the default configuration.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when no client can be made.
    public static func forService(_ given: StratusHTTPClient?, named service: String) throws -> StratusHTTPClient {
        if let given { return given }
        do {
            return try StratusHTTPClient()
        } catch {
            throw ServiceError(.invalidConfiguration, "The HTTP client for \(service) could not be created: \(error)")
        }
    }
}
