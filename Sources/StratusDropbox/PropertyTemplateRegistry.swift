import Foundation
import Stratus

/// The ids of the adapter's property templates in the account, looked up once and created
/// on first use.
///
/// Two processes may create the template at the same moment; then the account holds two
/// templates of that name. Metadata is read from all of them and written to the smallest id,
/// so every process agrees. A lookup that finds none is repeated after 30 seconds at the
/// earliest, so metadata another process starts writing shows up without a restart.
actor PropertyTemplateRegistry {
    private let transport: DropboxTransport
    private var known: [String] = []
    private var lastEmptyLookup: ContinuousClock.Instant?

    init(transport: DropboxTransport) {
        self.transport = transport
    }

    /// The template ids to read metadata from; empty when the account has none.
    func readIDs() async throws -> [String] {
        if !known.isEmpty { return known }
        if let lastEmptyLookup, ContinuousClock.now - lastEmptyLookup < .seconds(30) { return [] }
        known = try await lookUp()
        lastEmptyLookup = known.isEmpty ? ContinuousClock.now : nil
        return known
    }

    /// The template id to write metadata under, creating the template when there is none.
    func writeID() async throws -> String {
        if let first = known.first { return first }
        known = try await lookUp()
        if let first = known.first { return first }
        let route = "file_properties/templates/add_for_user"
        let created = try await transport.rpc(
            route, DropboxCustomMetadata.templateArgument, as: TemplateID.self, repetition: .onlyWhenRefused)
        known = [created.templateID]
        return created.templateID
    }

    /// The sorted ids of the user templates named ``DropboxCustomMetadata/templateName``.
    private func lookUp() async throws -> [String] {
        let listed = try await transport.rpc("file_properties/templates/list_for_user", .null, as: TemplateIDs.self)
        var matching: [String] = []
        for id in listed.templateIDs {
            let template = try await transport.rpc(
                "file_properties/templates/get_for_user",
                .object([("template_id", .string(id))]),
                as: TemplateName.self
            )
            if template.name == DropboxCustomMetadata.templateName { matching.append(id) }
        }
        return matching.sorted()
    }

    private struct TemplateID: Decodable {
        var templateID: String
        enum CodingKeys: String, CodingKey { case templateID = "template_id" }
    }

    private struct TemplateIDs: Decodable {
        var templateIDs: [String]
        enum CodingKeys: String, CodingKey { case templateIDs = "template_ids" }
    }

    private struct TemplateName: Decodable {
        var name: String
    }
}
