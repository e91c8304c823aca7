import Foundation
import HTTPTypes
import Hummingbird
import StratusAdapterKit

/// OCS answers (`/ocs/v1.php/...`, `/ocs/v2.php/...`): the `ocs` envelope with its `meta` and
/// `data`, as JSON (`?format=json`, or an `Accept: application/json`) or as XML (the default).
///
/// Version 1 answers HTTP 200 and puts the outcome in `meta.statuscode` (100 for success);
/// version 2 puts it in the HTTP status too (`statuscode` 200).
enum NextcloudOCSAnswers {
    /// The OCS API version a path names.
    enum Version {
        case v1
        case v2
    }

    /// A successful answer carrying `data`.
    static func success(_ data: Any, version: Version, request: Request) -> Response {
        let code = version == .v1 ? 100 : 200
        return envelope(status: 200, code: code, message: "OK", data: data, request: request)
    }

    /// A failure: in version 1 HTTP 200 with the OCS code (or 401 for a failed login, as
    /// Nextcloud sends), in version 2 the HTTP status itself.
    static func failure(httpStatus: Int, v1Code: Int, message: String, version: Version, request: Request) -> Response {
        switch version {
        case .v1:
            let status = httpStatus == 401 ? 401 : 200
            return envelope(status: status, code: v1Code, message: message, data: [String](), request: request)
        case .v2:
            return envelope(
                status: httpStatus, code: httpStatus, message: message, data: [String](), request: request)
        }
    }

    private static func envelope(status: Int, code: Int, message: String, data: Any, request: Request) -> Response {
        let meta: [String: Any] = [
            "status": code == 100 || code == 200 ? "ok" : "failure", "statuscode": code, "message": message,
            "totalitems": "", "itemsperpage": "",
        ]
        let document: [String: Any] = ["ocs": ["meta": meta, "data": data]]
        if wantsJSON(request) {
            let body =
                (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data("{}".utf8)
            return Response(
                status: HTTPResponse.Status(code: status),
                headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        let text = "<?xml version=\"1.0\"?>\n" + xml(document)
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/xml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private static func wantsJSON(_ request: Request) -> Bool {
        if let format = request.uri.queryParameters["format"] { return format == "json" }
        return request.headers[.accept]?.contains("application/json") == true
    }

    /// The XML form of an OCS document: dictionaries as elements, arrays as `<element>` items.
    private static func xml(_ value: Any) -> String {
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.keys.sorted().map { key in
                let inner = dictionary[key].map(xml) ?? ""
                return inner.isEmpty ? "<\(key)/>" : "<\(key)>\(inner)</\(key)>"
            }.joined()
        case let array as [Any]:
            return array.map { "<element>\(xml($0))</element>" }.joined()
        case let flag as Bool:
            return flag ? "1" : ""
        case let number as Int:
            return String(number)
        case let number as Int64:
            return String(number)
        case let text as String:
            return XMLTree.escaped(text)
        default:
            return ""
        }
    }
}
