import Foundation
import Stratus
import StratusAdapterKit

/// The properties the adapter reads and writes, and the XML bodies that carry them.
enum WebDAVProperties {
    /// The namespace of the adapter's own dead properties.
    static let namespace = "urn:x-stratus:webdav"
    /// The state property (see ``WebDAVState``).
    static let stateName = "stratus-state"
    /// The custom metadata property: a JSON object of strings.
    static let metadataName = "stratus-metadata"
    /// On Nextcloud, the SHA-256 of each version the adapter wrote: `m<seconds>=<hex>` pairs,
    /// separated by spaces, the newest ``historyLimit`` kept.
    static let historyName = "stratus-history"
    /// How many versions' hashes the history keeps.
    static let historyLimit = 100

    /// Reads the history property.
    static func history(_ text: String?) -> [(version: String, sha256: String)] {
        (text ?? "").split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[1].count == 64 else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }

    /// The history with one more version, the oldest dropped past the limit.
    static func history(_ text: String?, adding version: String, sha256: String) -> String {
        let kept = history(text).filter { $0.version != version } + [(version, sha256)]
        return kept.suffix(historyLimit).map { "\($0.version)=\($0.sha256)" }.joined(separator: " ")
    }

    /// The PROPFIND body: the live properties, the adapter's own, and Nextcloud's file id and
    /// checksums.
    static let propfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:s="\(namespace)" xmlns:oc="http://owncloud.org/ns">
        <d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/>\
        <s:\(stateName)/><s:\(metadataName)/><s:\(historyName)/><oc:fileid/><oc:checksums/></d:prop>
        </d:propfind>
        """

    /// A PROPFIND body for listings where only names and kinds matter (the change journal).
    static let propfindNamesBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>
        """

    /// A PROPPATCH body that sets the state and sets (or, for `nil`, removes) the metadata.
    static func proppatchBody(state: WebDAVState, metadata: [String: String]?, history: String? = nil) throws -> Data {
        var set = "<s:\(stateName)>\(XMLTree.escaped(state.text))</s:\(stateName)>"
        if let history { set += "<s:\(historyName)>\(XMLTree.escaped(history))</s:\(historyName)>" }
        var remove = ""
        if let metadata, !metadata.isEmpty {
            set += "<s:\(metadataName)>\(XMLTree.escaped(try encode(metadata)))</s:\(metadataName)>"
        } else {
            remove = "<d:remove><d:prop><s:\(metadataName)/></d:prop></d:remove>"
        }
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propertyupdate xmlns:d="DAV:" xmlns:s="\(namespace)"><d:set><d:prop>\(set)</d:prop></d:set>\(remove)</d:propertyupdate>
            """
        return Data(text.utf8)
    }

    /// Metadata as JSON text with every non-ASCII character escaped, so servers that store
    /// properties in 8-bit databases keep it exactly.
    static func encode(_ metadata: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(metadata)
        var text = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                text.unicodeScalars.append(scalar)
            } else {
                for unit in String(scalar).utf16 { text += String(format: "\\u%04x", unit) }
            }
        }
        return text
    }

    /// Metadata from the property's JSON text; empty for none, `nil` for text that is not a
    /// JSON object of strings.
    static func decode(_ text: String?) -> [String: String]? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [:] }
        return try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }

    /// Checks that metadata can be kept: names and values of text XML can carry.
    static func validate(_ metadata: [String: String]) throws {
        for (name, value) in metadata {
            for text in [name, value]
            where text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" }) {
                throw ServiceError(
                    .unsupported,
                    "The metadata \(name.debugDescription) contains a control character, which WebDAV properties cannot carry."
                )
            }
        }
    }

    /// The LOCK body: an exclusive write lock.
    static let lockBody = Data(
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype>\
        <d:owner>stratus</d:owner></d:lockinfo>
        """.utf8)
}
