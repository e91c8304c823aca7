extension StratusHTTPClient {
    /// Runs `body` with a new client and shuts the client down when `body` returns or throws,
    /// so that its thread never outlives the work it was made for.
    ///
    /// ```swift
    /// let response = try await StratusHTTPClient.withClient { client in
    ///     try await client.execute(StratusHTTPRequest(method: .get, url: url))
    /// }
    /// ```
    /// - Parameters:
    ///   - configuration: Timeouts, trust roots, redirects and buffers.
    ///   - body: The work; the client must not be used after it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``StratusHTTPClientError`` when the client cannot be made, or what `body` throws.
    public static func withClient<Result: Sendable>(
        configuration: Configuration = Configuration(),
        _ body: (StratusHTTPClient) async throws -> Result
    ) async throws -> Result {
        let client = try StratusHTTPClient(configuration: configuration)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }
}
