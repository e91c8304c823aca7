import Foundation

/// `application/x-www-form-urlencoded` bodies and strictly encoded query strings.
enum FormEncoding {
    /// RFC 3986 unreserved characters: the only ones left as they are.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// One name or value, every reserved character percent-encoded (so `+`, `/`, `:` and `=`
    /// cannot be misread by the server).
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `name=value&name=value`, in order.
    static func encode(_ fields: [(name: String, value: String)]) -> String {
        fields.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
    }

    /// A form body.
    static func body(_ fields: [(name: String, value: String)]) -> Data {
        Data(encode(fields).utf8)
    }

    /// `url` with the fields appended to its query.
    static func url(_ url: URL, adding fields: [(name: String, value: String)]) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let added = encode(fields)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + added
        } else {
            components.percentEncodedQuery = added
        }
        return components.url
    }
}
