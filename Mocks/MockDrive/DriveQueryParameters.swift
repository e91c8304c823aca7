import Hummingbird
import MockSupport

/// The query parameters of a request, with typed accessors that fail as Drive does.
struct DriveQueryParameters {
    /// The decoded parameters.
    let fields: FormFields

    init(_ request: Request) {
        self.init(query: request.uri.query)
    }

    /// Parses a raw query string (without `?`); a malformed one reads as empty.
    init(query: String?) {
        fields = (try? FormFields(parsing: query ?? "")) ?? FormFields()
    }

    subscript(name: String) -> String? { fields[name] }

    /// A boolean parameter (`true`/`false`).
    /// - Throws: 400 `invalidParameter` for another value.
    func bool(_ name: String, default value: Bool) throws(DriveFailure) -> Bool {
        guard let text = fields[name] else { return value }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default:
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "invalidParameter",
                    message: "Invalid value '\(text)'. Values must be true or false.", location: name))
        }
    }

    /// `pageSize`: the default when absent, lowered to `maximum`.
    /// - Throws: 400 `invalid` for a value that is not a number of at least 1.
    func pageSize(default value: Int, maximum: Int) throws(DriveFailure) -> Int {
        guard let text = fields["pageSize"] else { return min(value, maximum) }
        guard let number = Int(text), number >= 1 else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "invalid",
                    message: "Invalid value '\(text)'. Values must be within the range: [1, \(maximum)]",
                    location: "pageSize"
                ))
        }
        return min(number, maximum)
    }

    /// A comma-separated list parameter such as `addParents`.
    func list(_ name: String) -> [String] {
        (fields[name] ?? "").split(separator: ",").map(\.trimmingOptionalWhiteSpace).filter {
            !$0.isEmpty
        }
    }

    /// The `fields` mask, checked against a schema; `defaultMask` when absent.
    /// - Throws: 400 `invalidParameter` for a selection that does not parse or names unknown fields.
    func mask(schema: FieldSchema, default defaultMask: String) throws(DriveFailure) -> FieldMask {
        let text = fields["fields"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultMask
        guard let mask = try? FieldMask.parsed(text) else {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "invalidParameter", message: "Invalid field selection \(text)",
                    location: "fields"))
        }
        if let unknown = mask.unknownNames(schema).first {
            throw DriveFailure(
                DriveErrorBody(
                    code: 400, reason: "invalidParameter", message: "Invalid field selection \(unknown)",
                    location: "fields"))
        }
        return mask
    }
}

/// The default `fields` of each method, as Drive v3 answers without a `fields` parameter.
enum DefaultFields {
    static let file = "kind,id,name,mimeType"
    static let fileList = "kind,incompleteSearch,nextPageToken,files(kind,id,name,mimeType)"
    static let changeList =
        "kind,nextPageToken,newStartPageToken,changes(kind,type,changeType,time,removed,fileId,file(kind,id,name,mimeType))"
    static let startPageToken = "kind,startPageToken"
    static let revision = "kind,id,mimeType,modifiedTime"
    static let revisionList = "kind,nextPageToken,revisions(kind,id,mimeType,modifiedTime)"
}
