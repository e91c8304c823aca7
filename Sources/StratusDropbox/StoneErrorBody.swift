import Foundation

/// The body of a Dropbox error answer (`{"error_summary", "error", "user_message"}`), read as
/// the chain of union tags from the outside in.
///
/// A union member whose type is a union is nested under its own name; one whose type is a
/// struct has its fields inlined, and a struct field may itself hold a union (`reason` of
/// `UploadWriteFailed`). The chain follows the member's own name first and otherwise the first
/// field holding a tagged object, so `{".tag":"path","reason":{".tag":"conflict","conflict":
/// {".tag":"file"}}}` reads as `path/conflict/file`. Void members may come as bare strings.
struct StoneErrorBody: Sendable, Equatable {
    /// The tags from the outermost union inwards, such as `["path", "not_found"]`.
    var tags: [String]
    /// The `error_summary` text, for logs and ``/Stratus/ServiceError/providerError``.
    var summary: String?
    /// `correct_offset` of an `incorrect_offset` member, wherever it sits in the chain.
    var correctOffset: Int64?
    /// `retry_after` (seconds) of a rate-limit error.
    var retryAfterSeconds: Int64?

    /// Reads an error body.
    /// - Returns: `nil` when the body is not a JSON object.
    static func parse(_ data: Data) -> StoneErrorBody? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        var body = StoneErrorBody(tags: [], summary: object["error_summary"] as? String)
        if let error = object["error"] {
            body.read(error, depth: 0)
        }
        return body
    }

    /// Reads a bare union value (no `error` wrapper), as in tests.
    static func parseUnion(_ data: Data) -> StoneErrorBody? {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        var body = StoneErrorBody(tags: [], summary: nil)
        body.read(value, depth: 0)
        return body.tags.isEmpty ? nil : body
    }

    /// Whether a tag appears anywhere in the chain.
    func contains(_ tag: String) -> Bool { tags.contains(tag) }

    private mutating func read(_ value: Any, depth: Int) {
        guard depth < 16 else { return }
        if let tag = value as? String {
            tags.append(tag)
            return
        }
        guard let object = value as? [String: Any] else { return }
        if let offset = StoneErrorBody.integer(object["correct_offset"]) { correctOffset = offset }
        if let seconds = StoneErrorBody.integer(object["retry_after"]) { retryAfterSeconds = seconds }
        if let tag = object[".tag"] as? String {
            tags.append(tag)
            if let nested = object[tag], nested is [String: Any] || nested is String {
                read(nested, depth: depth + 1)
                return
            }
        }
        // A struct member: its fields are inlined; follow the first one that holds a union.
        for key in object.keys.sorted() where key != ".tag" {
            if let nested = object[key] as? [String: Any], nested[".tag"] != nil {
                read(nested, depth: depth + 1)
                return
            }
        }
    }

    private static func integer(_ value: Any?) -> Int64? {
        switch value {
        case let number as NSNumber:
            // JSONSerialization gives NSNumber; reject fractions and huge values.
            let double = number.doubleValue
            guard double.rounded() == double, abs(double) < 9e15 else { return nil }
            return number.int64Value
        default:
            return nil
        }
    }
}
