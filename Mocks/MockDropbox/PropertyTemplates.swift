import Foundation
import Hummingbird
import Synchronization

/// One property group attached to a file revision (`file_properties.PropertyGroup`).
struct PropertyGroupValue: Sendable, Hashable {
    var templateID: String
    var fields: [(name: String, value: String)]

    static func == (lhs: PropertyGroupValue, rhs: PropertyGroupValue) -> Bool {
        lhs.templateID == rhs.templateID && lhs.fields.map(\.name) == rhs.fields.map(\.name)
            && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(templateID)
    }

    var json: [String: Any] {
        ["template_id": templateID, "fields": fields.map { ["name": $0.name, "value": $0.value] }]
    }
}

/// User-owned property templates (`file_properties/templates/*_for_user`), in memory.
final class PropertyTemplates: Sendable {
    struct Template: Sendable {
        var name: String
        var description: String
        /// Field name, description and type tag (always `string`).
        var fields: [(name: String, description: String)]
    }

    /// Why property groups were refused: an `InvalidPropertyGroupError`.
    struct Problem: Error {
        var tag: String
        var templateID: String?

        var union: [String: Any] {
            var union: [String: Any] = [".tag": tag]
            if let templateID { union[tag] = templateID }
            return union
        }
    }

    private let templates: Mutex<[String: Template]>
    /// Called after a template was added: the saved state's cue.
    private let onChange: (@Sendable () -> Void)?

    /// Templates by `ptid:` id (none by default).
    /// - Parameter onChange: Called after every template added.
    init(templates: [String: Template] = [:], onChange: (@Sendable () -> Void)? = nil) {
        self.templates = Mutex(templates)
        self.onChange = onChange
    }

    /// Adds a template and returns its `ptid:` id.
    func add(_ template: Template) -> String {
        let id = "ptid:" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        templates.withLock { $0[id] = template }
        onChange?()
        return id
    }

    /// Every template by id.
    var all: [String: Template] {
        templates.withLock { $0 }
    }

    func template(_ id: String) -> Template? {
        templates.withLock { $0[id] }
    }

    var ids: [String] {
        templates.withLock { Array($0.keys).sorted() }
    }

    /// Reads and checks a `property_groups` list against the templates.
    func parse(_ raw: Any?, arguments: DropboxArguments) throws -> [PropertyGroupValue] {
        guard let raw, !(raw is NSNull) else { return [] }
        guard let list = raw as? [[String: Any]] else { throw arguments.fail("property_groups", "expected list") }
        var groups: [PropertyGroupValue] = []
        for item in list {
            guard let id = item["template_id"] as? String, let fields = item["fields"] as? [[String: Any]] else {
                throw arguments.fail("property_groups", "expected template_id and fields")
            }
            var pairs: [(name: String, value: String)] = []
            for field in fields {
                guard let name = field["name"] as? String, let value = field["value"] as? String else {
                    throw arguments.fail("property_groups", "fields: expected name and value")
                }
                pairs.append((name, value))
            }
            guard let template = template(id) else { throw Problem(tag: "template_not_found", templateID: id) }
            let allowed = Set(template.fields.map(\.name))
            guard pairs.allSatisfy({ allowed.contains($0.name) }) else { throw Problem(tag: "does_not_fit_template") }
            guard pairs.allSatisfy({ $0.name.utf8.count <= 256 && $0.value.utf8.count <= 1024 }) else {
                throw Problem(tag: "property_field_too_large")
            }
            guard !groups.contains(where: { $0.templateID == id }) else {
                throw Problem(tag: "duplicate_property_groups")
            }
            groups.append(PropertyGroupValue(templateID: id, fields: pairs))
        }
        return groups
    }

    /// Reads an `include_property_groups` filter (`TemplateFilterBase`): the template ids
    /// to include, or `nil` when not asked.
    static func filter(_ arguments: DropboxArguments) throws -> [String]? {
        guard let raw = arguments.object["include_property_groups"], !(raw is NSNull) else { return nil }
        guard let union = raw as? [String: Any], union[".tag"] as? String == "filter_some",
            let ids = union["filter_some"] as? [String], !ids.isEmpty
        else { throw arguments.fail("include_property_groups", "expected filter_some with template ids") }
        return ids
    }
}

/// `file_properties/templates/add_for_user`, `get_for_user` and `list_for_user`.
extension MockDropboxServer {
    func addTemplate(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.write")
        let arguments = try await rpcArguments(&request, route: "file_properties/templates/add_for_user")
        let name = try arguments.string("name")
        let description = try arguments.string("description")
        guard let rawFields = arguments.object["fields"] as? [[String: Any]] else {
            throw arguments.fail("fields", "missing required field")
        }
        var fields: [(name: String, description: String)] = []
        for field in rawFields {
            guard let fieldName = field["name"] as? String, let fieldDescription = field["description"] as? String
            else {
                throw arguments.fail("fields", "expected name, description and type")
            }
            if fields.contains(where: { $0.name == fieldName }) {
                throw DropboxFailure.route(FilesError.tag("conflicting_property_names"))
            }
            fields.append((fieldName, fieldDescription))
        }
        guard fields.count <= 32 else { throw DropboxFailure.route(FilesError.tag("too_many_properties")) }
        let id = templates.add(.init(name: name, description: description, fields: fields))
        return Self.ok(["template_id": id])
    }

    func getTemplate(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.read")
        let arguments = try await rpcArguments(&request, route: "file_properties/templates/get_for_user")
        let id = try arguments.string("template_id")
        guard let template = templates.template(id) else {
            throw DropboxFailure.route(PropertyTemplates.Problem(tag: "template_not_found", templateID: id).union)
        }
        return Self.ok([
            "name": template.name, "description": template.description,
            "fields": template.fields.map {
                ["name": $0.name, "description": $0.description, "type": [".tag": "string"]]
            },
        ])
    }

    func listTemplates(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "files.metadata.read")
        return Self.ok(["template_ids": templates.ids])
    }

    /// Metadata with the `property_groups` of a revision for the templates asked for.
    static func withPropertyGroups(_ metadata: [String: Any], revision: FileRevision?, filter: [String]?) -> [String:
        Any]
    {
        guard let filter, let revision else { return metadata }
        var result = metadata
        result["property_groups"] = revision.propertyGroups.filter { filter.contains($0.templateID) }.map(\.json)
        return result
    }
}
