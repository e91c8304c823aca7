import Foundation
import Stratus

/// Custom metadata kept in Dropbox file properties.
///
/// Dropbox property templates declare their field names up front, while a caller's metadata
/// has any keys, so the adapter owns one user template, named ``templateName``, whose fields
/// `json0` … `json7` carry the metadata as JSON (keys sorted) cut into pieces of at most 1,024
/// UTF-8 bytes, Dropbox's limit for one value. Metadata up to 8 KiB of JSON fits; more is
/// refused with ``/Stratus/ServiceError/Code/payloadTooLarge`` before anything is written.
/// An empty dictionary is stored as no property group at all.
enum DropboxCustomMetadata {
    /// The name of the adapter's property template.
    static let templateName = "Stratus metadata"
    /// The template's fields, in order.
    static let fieldNames = (0..<8).map { "json\($0)" }
    /// The most UTF-8 bytes in one field value.
    static let pieceLimit = 1024

    /// The `add_for_user` argument that creates the template.
    static var templateArgument: StoneValue {
        .object([
            ("name", .string(templateName)),
            ("description", .string("Custom metadata written by Stratus, as JSON cut into pieces.")),
            (
                "fields",
                .array(
                    fieldNames.map { name in
                        .object([
                            ("name", .string(name)),
                            ("description", .string("A piece of the JSON text.")),
                            ("type", .tag("string")),
                        ])
                    })
            ),
        ])
    }

    /// The `property_groups` list that stores metadata under a template.
    /// - Throws: ``/Stratus/ServiceError/Code/payloadTooLarge`` past 8 KiB of JSON.
    static func propertyGroups(_ metadata: [String: String], templateID: String) throws -> StoneValue {
        guard !metadata.isEmpty else { return .array([]) }
        let json = try encode(metadata)
        let pieces = split(json)
        guard pieces.count <= fieldNames.count else {
            throw ServiceError(
                .payloadTooLarge,
                "Custom metadata is \(json.utf8.count) bytes as JSON; Dropbox file properties carry at most \(fieldNames.count * pieceLimit)."
            )
        }
        let fields = zip(fieldNames, pieces).map { name, piece in
            StoneValue.object([("name", .string(name)), ("value", .string(piece))])
        }
        return .array([.object([("template_id", .string(templateID)), ("fields", .array(fields))])])
    }

    /// The metadata stored in a file's property groups (those of the adapter's templates, as
    /// `include_property_groups` asked for), or an empty dictionary when there is none.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidResponse`` when the pieces do not join into
    ///   a JSON object of strings.
    static func metadata(from groups: [DropboxPropertyGroup]?, route: String) throws -> [String: String] {
        guard let group = groups?.first(where: { group in group.fields.contains { fieldNames.contains($0.name) } })
        else {
            return [:]
        }
        let values = Dictionary(group.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let json = fieldNames.compactMap { values[$0] }.joined()
        guard let decoded = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)) else {
            throw DropboxErrorMapping.undecodable(
                route: route, "the Stratus metadata property group does not hold a JSON object of strings")
        }
        return decoded
    }

    private static func encode(_ metadata: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(metadata) else {
            throw ServiceError(.invalidConfiguration, "The custom metadata could not be written as JSON.")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Cuts text into pieces of at most ``pieceLimit`` UTF-8 bytes, never inside a character.
    private static func split(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var currentBytes = 0
        for scalar in text.unicodeScalars {
            let bytes = String(scalar).utf8.count
            if currentBytes + bytes > pieceLimit {
                pieces.append(current)
                current = ""
                currentBytes = 0
            }
            current.unicodeScalars.append(scalar)
            currentBytes += bytes
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}

/// A `file_properties.PropertyGroup` as metadata carries it.
struct DropboxPropertyGroup: Decodable, Sendable, Equatable {
    struct Field: Decodable, Sendable, Equatable {
        var name: String
        var value: String
    }

    var templateID: String
    var fields: [Field]

    enum CodingKeys: String, CodingKey {
        case templateID = "template_id"
        case fields
    }
}
