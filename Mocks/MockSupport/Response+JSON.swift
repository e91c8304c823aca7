import Foundation
import Hummingbird

extension Response {
    /// An answer whose body is a value encoded as JSON, with `Content-Type` exactly
    /// `application/json` (no charset), as the providers send and their SDKs check.
    /// - Parameters:
    ///   - value: The value to encode; keys are written sorted.
    ///   - status: The status; 200 by default.
    ///   - headers: More header fields.
    /// - Returns: The answer; if the value cannot be encoded, a 500 saying so.
    public static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return text("The mock could not encode its answer as JSON.", status: .internalServerError)
        }
        return json(text: String(decoding: data, as: UTF8.self), status: status, headers: headers)
    }

    /// An answer whose body is JSON text given as it is (such as `null` or `{}`), with
    /// `Content-Type` exactly `application/json`.
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - status: The status; 200 by default.
    ///   - headers: More header fields.
    public static func json(text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A plain-text answer (`text/plain; charset=utf-8`), the shape Dropbox uses for bad input.
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status.
    public static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// A small HTML page (`text/html; charset=utf-8`) with a title and a paragraph, both escaped.
    /// - Parameters:
    ///   - title: The page's title and heading.
    ///   - message: The paragraph.
    ///   - status: The status.
    public static func html(title: String, message: String, status: HTTPResponse.Status) -> Response {
        let page = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(escapeHTML(title))</title></head>
            <body><h1>\(escapeHTML(title))</h1><p>\(escapeHTML(message))</p></body></html>

            """
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page))
        )
    }

    /// Text with `&`, `<`, `>`, `"` and `'` replaced by entities, safe inside HTML.
    /// - Parameter text: The text.
    public static func escapeHTML(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
