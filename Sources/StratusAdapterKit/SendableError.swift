/// Carries an error's text as the underlying cause of a ``/Stratus/ServiceError``, without
/// keeping the error (or anything it holds) alive.
public struct SendableError: Error, Sendable, CustomStringConvertible {
    /// The error's text.
    public let description: String

    /// Takes the text of an error.
    /// - Parameter error: Any error.
    public init(_ error: any Error) { description = String(describing: error) }
}
