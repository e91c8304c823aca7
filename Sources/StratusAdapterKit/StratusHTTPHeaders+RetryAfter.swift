public import Foundation
public import StratusHTTP

extension StratusHTTPHeaders {
    /// The `Retry-After` field in either of its forms (RFC 9110, section 10.2.3): delay-seconds
    /// (`120`), or an HTTP date (`Fri, 31 Dec 1999 23:59:59 GMT`, in any form ``HTTPDate``
    /// reads), as the wait until then: zero for a date in the past. `nil` when the field is
    /// absent or unreadable. A date years away comes back as a very long wait, which every
    /// ``/Stratus/RetryPolicy/maximumRetryAfter`` refuses.
    /// - Parameter now: The current time, for the date form.
    /// - Returns: How long the server asks to wait.
    public func retryAfter(now: Date = Date()) -> Duration? {
        if let seconds = retryAfterSeconds { return .seconds(seconds) }
        guard let value = self["Retry-After"], let date = HTTPDate.parse(value.trimmingCharacters(in: .whitespaces))
        else {
            return nil
        }
        let wait = date.timeIntervalSince(now)
        guard wait.isFinite, wait > 0 else { return .zero }
        // A date years away is still a wait longer than any policy accepts; cap it before converting.
        return .milliseconds(Int64((Swift.min(wait, 1e9) * 1000).rounded(.up)))
    }
}
