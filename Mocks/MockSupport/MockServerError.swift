/// Why a mock server could not be used.
public enum MockServerError: Error, Sendable, CustomStringConvertible {
    /// The server stopped before it announced the address it listens on (for example when the
    /// task was cancelled while it was starting).
    case didNotStart
    /// The address a server bound could not be written as a URL.
    case unusableAddress(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .didNotStart: "The mock server stopped before it was listening."
        case .unusableAddress(let address): "The mock server's address \(address) cannot be written as a URL."
        }
    }
}
