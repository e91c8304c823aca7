import Foundation
import HTTPTypes
import Hummingbird
import StratusAdapterKit

/// The XML answers of the mock: Sabre error documents and multistatus bodies.
enum NextcloudAnswers {
    /// A Sabre error document, as Nextcloud sends it.
    static func error(status: Int, exception: String, message: String) -> Response {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">
              <s:exception>\(XMLTree.escaped(exception))</s:exception>
              <s:message>\(XMLTree.escaped(message))</s:message>
            </d:error>
            """
        return xml(status: status, body)
    }

    static func xml(status: Int, _ text: String) -> Response {
        Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/xml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    static func empty(status: Int, headers: HTTPFields = [:]) -> Response {
        Response(
            status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer()))
    }

    /// The namespace prefixes the mock writes.
    static let prefixes: [String: String] = [
        "DAV:": "d", "http://owncloud.org/ns": "oc", "http://nextcloud.org/ns": "nc", "http://sabredav.org/ns": "s",
    ]

    /// `{ns}name` as a tag with a prefix, declaring an unknown namespace on the element itself.
    static func tag(_ name: String, value: String?) -> String {
        guard name.hasPrefix("{"), let close = name.firstIndex(of: "}") else { return "" }
        let namespace = String(name[name.index(after: name.startIndex)..<close])
        let local = String(name[name.index(after: close)...])
        let open: String
        let closeTag: String
        if let prefix = prefixes[namespace] {
            open = "\(prefix):\(local)"
            closeTag = open
        } else {
            open = "x:\(local) xmlns:x=\"\(XMLTree.escaped(namespace))\""
            closeTag = "x:\(local)"
        }
        guard let value else { return "<\(open)/>" }
        return "<\(open)>\(value)</\(closeTag)>"
    }

    /// One `d:response` with a 200 propstat and, when some were asked for and are absent, a 404 one.
    static func response(href: String, found: [(String, String)], missing: [String]) -> String {
        var text = "<d:response><d:href>\(XMLTree.escaped(href))</d:href>"
        text +=
            "<d:propstat><d:prop>" + found.map { tag($0.0, value: $0.1) }.joined()
            + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
        if !missing.isEmpty {
            text +=
                "<d:propstat><d:prop>" + missing.map { tag($0, value: nil) }.joined()
                + "</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>"
        }
        return text + "</d:response>"
    }

    static func multistatus(_ responses: [String]) -> Response {
        xml(
            status: 207,
            "<?xml version=\"1.0\"?>\n<d:multistatus xmlns:d=\"DAV:\" xmlns:s=\"http://sabredav.org/ns\" xmlns:oc=\"http://owncloud.org/ns\" xmlns:nc=\"http://nextcloud.org/ns\">"
                + responses.joined() + "</d:multistatus>")
    }

    /// An HTTP date such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ seconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// A path made into an `href`: each segment percent-encoded.
    static func href(_ base: String, _ path: String, isFolder: Bool) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = path.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: unreserved) ?? String($0)
        }.joined(separator: "/")
        var text = base + encoded
        if isFolder, !path.isEmpty { text += "/" }
        return text
    }
}
