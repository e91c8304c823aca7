import Foundation
import StratusHTTP

/// `application/x-www-form-urlencoded` bodies and strictly encoded query strings, through
/// StratusHTTP's ``/StratusHTTP/PercentEncoding`` (every reserved character encoded, so `+`,
/// `/`, `:` and `=` cannot be misread by the server).
enum FormEncoding {
    /// A form body: `name=value&name=value`, in order.
    static func body(_ fields: [(name: String, value: String)]) -> Data {
        Data(PercentEncoding.query(fields).utf8)
    }

    /// `url` with the fields appended to its query.
    static func url(_ url: URL, adding fields: [(name: String, value: String)]) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let added = PercentEncoding.query(fields)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + added
        } else {
            components.percentEncodedQuery = added
        }
        return components.url
    }
}
