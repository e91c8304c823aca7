import Foundation
import Stratus

extension ContractSuite {
    /// Custom metadata: set, kept when an overwrite passes nil, replaced, cleared.
    static var metadataChecks: [ContractCheck.Definition] {
        [customMetadata]
    }

    private static let customMetadata = ContractCheck.Definition("custom metadata: set, kept on nil, replaced, cleared")
    { run in
        guard run.capabilities.supportsCustomMetadata else {
            throw run.skip("capabilities.supportsCustomMetadata is false")
        }
        let path = try run.path("meta/save.json")
        let first = ["slot": "1", "device": "Pad Pro", "note": "héllo wörld"]

        let created = try await run.upload(.bytes(Data("v1".utf8)), to: path, options: UploadOptions(metadata: first))
        try expectEqual(created.metadata, first, "metadata returned by the upload that set it")
        try expectEqual(try await run.service.metadata(of: path).metadata, first, "metadata(of:) after setting it")

        let kept = try await run.upload(.bytes(Data("v2".utf8)), to: path, options: UploadOptions(metadata: nil))
        try expectEqual(kept.metadata, first, "metadata returned by an overwrite with metadata nil (nil keeps it)")
        try expectEqual(
            try await run.service.metadata(of: path).metadata, first,
            "metadata(of:) after an overwrite with metadata nil")
        let listed = try await run.service.list(try run.path("meta"))
        try expectEqual(listed.first?.metadata, first, "metadata listed by list(meta)")

        let second = ["slot": "2"]
        let replaced = try await run.upload(.bytes(Data("v3".utf8)), to: path, options: UploadOptions(metadata: second))
        try expectEqual(
            replaced.metadata, second, "metadata returned by an overwrite with new metadata (it replaces, not merges)")
        try expectEqual(try await run.service.metadata(of: path).metadata, second, "metadata(of:) after replacing it")

        let cleared = try await run.upload(.bytes(Data("v4".utf8)), to: path, options: UploadOptions(metadata: [:]))
        try expectEqual(cleared.metadata, [:], "metadata returned by an overwrite with empty metadata (empty clears)")
        try expectEqual(try await run.service.metadata(of: path).metadata, [:], "metadata(of:) after clearing it")
    }
}
