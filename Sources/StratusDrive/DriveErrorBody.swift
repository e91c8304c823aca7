import Foundation
import Stratus
import StratusAdapterKit

/// Google's JSON error body:
/// `{"error": {"code": 404, "message": "...", "errors": [{"domain", "reason", "message", "location"}], "status": "NOT_FOUND"}}`.
struct DriveErrorBody: Sendable, Equatable {
    struct Item: DriveAnswer, Equatable {
        var domain: String?
        var reason: String?
        var message: String?
        var location: String?
    }

    var code: Int?
    var message: String?
    var errors: [Item]
    var status: String?

    /// Parses an error body; `nil` when it is not Google's error JSON.
    static func parse(_ data: Data) -> DriveErrorBody? {
        var body: DriveErrorBody?
        do {
            try JSONReader.read(data) { reader throws(JSONReadError) in
                try reader.readObject { member, reader throws(JSONReadError) in
                    if member == "error" { body = try DriveErrorBody(inner: &reader) } else { try reader.skipValue() }
                }
            }
        } catch {
            return nil
        }
        return body
    }

    /// Reads the object inside `"error"`; members of a wrong type make the body unreadable.
    private init(inner reader: inout JSONReader) throws(JSONReadError) {
        var body = DriveErrorBody(code: nil, message: nil, errors: [], status: nil)
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "code": body.code = try reader.readNull() ? nil : Int(exactly: reader.readInt64())
            case "message": body.message = try reader.readStringUnlessNull()
            case "status": body.status = try reader.readStringUnlessNull()
            case "errors":
                body.errors = try DriveJSON.list(&reader)
            default: try reader.skipValue()
            }
        }
        self = body
    }

    init(code: Int?, message: String?, errors: [Item], status: String?) {
        self.code = code
        self.message = message
        self.errors = errors
        self.status = status
    }

    /// The reasons of every error item, such as `["rateLimitExceeded"]`.
    var reasons: [String] { errors.compactMap(\.reason) }

    /// Whether any item has this reason.
    func has(_ reason: String) -> Bool { reasons.contains(reason) }

    /// What is kept as ``/Stratus/ServiceError/providerError``: the reasons and Google's message,
    /// such as `notFound: File not found: 1a2b.`
    var summary: String {
        let text = message ?? errors.first?.message ?? status ?? ""
        let reasonText = reasons.joined(separator: ",")
        switch (reasonText.isEmpty, text.isEmpty) {
        case (true, _): return text
        case (false, true): return reasonText
        case (false, false): return "\(reasonText): \(text)"
        }
    }
}

extension DriveErrorBody.Item {
    /// Reads one item of `errors`.
    init(json reader: inout JSONReader) throws(JSONReadError) {
        var item = DriveErrorBody.Item()
        try reader.readObject { member, reader throws(JSONReadError) in
            switch member {
            case "domain": item.domain = try reader.readStringUnlessNull()
            case "reason": item.reason = try reader.readStringUnlessNull()
            case "message": item.message = try reader.readStringUnlessNull()
            case "location": item.location = try reader.readStringUnlessNull()
            default: try reader.skipValue()
            }
        }
        self = item
    }
}
