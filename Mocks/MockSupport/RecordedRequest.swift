/// One request a mock answered, as its ``RequestLog`` keeps it: secrets are already redacted.
public struct RecordedRequest: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The method, such as `POST`.
    public var method: String
    /// The path without the query, such as `/oauth2/token`.
    public var path: String
    /// The query parameters, decoded, secret values redacted.
    public var query: [NamedValue]
    /// The headers the log keeps (see ``RequestLogMiddleware``), secret values redacted.
    public var headers: [NamedValue]
    /// The call's arguments with secret fields redacted: form fields as `name=value&...`, or
    /// JSON with sorted keys (from a JSON body or a `Dropbox-API-Arg` header); `nil` when the
    /// request carried none that the log reads.
    public var arguments: String?
    /// The status code of the answer.
    public var status: Int

    /// Creates a record.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path without the query.
    ///   - query: The query parameters, already redacted.
    ///   - headers: The kept headers, already redacted.
    ///   - arguments: The redacted arguments.
    ///   - status: The status code of the answer.
    public init(
        method: String,
        path: String,
        query: [NamedValue] = [],
        headers: [NamedValue] = [],
        arguments: String? = nil,
        status: Int
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.arguments = arguments
        self.status = status
    }

    /// The first value of a kept header, or `nil`.
    /// - Parameter name: The header's name, in any case.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// The first value of a query parameter, or `nil`.
    /// - Parameter name: The parameter's exact name.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// One line: `POST /oauth2/token?a=b -> 200 [Content-Type: ...] {arguments}`.
    public var description: String {
        var line = "\(method) \(path)"
        if !query.isEmpty {
            line += "?" + query.map(\.description).joined(separator: "&")
        }
        line += " -> \(status)"
        if !headers.isEmpty {
            line += " [" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ") + "]"
        }
        if let arguments {
            line += " " + arguments
        }
        return line
    }
}
