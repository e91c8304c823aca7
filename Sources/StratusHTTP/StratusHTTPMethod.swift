/// An HTTP request method, and whether sending it twice does no more than sending it once.
///
/// Idempotency is declared, never assumed: the methods RFC 9110 (section 9.2.2) defines as
/// idempotent (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`) are; `POST`, `PATCH` and
/// every other method name are not, unless the caller says so with
/// ``init(_:isIdempotent:)``. A WebDAV adapter, for instance, declares `PROPFIND` idempotent
/// (it only reads) and leaves `MKCOL` and `MOVE` as they are.
///
/// The declaration decides ``StratusHTTPRequest/isIdempotent``'s default, which decides
/// whether libcurl may resend the request on its own after a reused connection closed without
/// an answer. Two methods are equal when their names are; the declaration is not compared.
public struct StratusHTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name as sent on the wire.
    public let rawValue: String
    /// Whether sending a request with this method twice does no more than sending it once.
    public let isIdempotent: Bool

    /// The method names RFC 9110 defines as idempotent.
    private static let idempotentNames: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    /// Wraps a method name; idempotent only if RFC 9110 says the method is (`GET`, `HEAD`,
    /// `PUT`, `DELETE`, `OPTIONS`, `TRACE`, compared exactly, as method names are
    /// case-sensitive). Use the constants for the common ones.
    /// - Parameter rawValue: The name as sent on the wire, such as `"MKCOL"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
        self.isIdempotent = Self.idempotentNames.contains(rawValue)
    }

    /// Wraps a method name with an explicit idempotency declaration, for methods outside
    /// RFC 9110's list such as WebDAV's.
    /// - Parameters:
    ///   - name: The name as sent on the wire, such as `"PROPFIND"`.
    ///   - isIdempotent: Whether sending it twice does no more than sending it once.
    public init(_ name: String, isIdempotent: Bool) {
        self.rawValue = name
        self.isIdempotent = isIdempotent
    }

    /// `GET`: idempotent.
    public static let get = StratusHTTPMethod(rawValue: "GET")
    /// `HEAD`: idempotent; the answer has no body.
    public static let head = StratusHTTPMethod(rawValue: "HEAD")
    /// `POST`: not idempotent.
    public static let post = StratusHTTPMethod(rawValue: "POST")
    /// `PUT`: idempotent.
    public static let put = StratusHTTPMethod(rawValue: "PUT")
    /// `PATCH`: not idempotent.
    public static let patch = StratusHTTPMethod(rawValue: "PATCH")
    /// `DELETE`: idempotent.
    public static let delete = StratusHTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: idempotent.
    public static let options = StratusHTTPMethod(rawValue: "OPTIONS")

    /// Whether two methods have the same name.
    public static func == (lhs: StratusHTTPMethod, rhs: StratusHTTPMethod) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    /// Hashes the name only, as ``==(_:_:)`` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    /// The name.
    public var description: String { rawValue }
}
