/// An HTTP request method.
public struct StratusHTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name as sent on the wire.
    public let rawValue: String

    /// Wraps a method name; use the constants for the common ones.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`
    public static let get = StratusHTTPMethod(rawValue: "GET")
    /// `HEAD`: the answer has no body.
    public static let head = StratusHTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let post = StratusHTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = StratusHTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let patch = StratusHTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let delete = StratusHTTPMethod(rawValue: "DELETE")

    public var description: String { rawValue }
}
