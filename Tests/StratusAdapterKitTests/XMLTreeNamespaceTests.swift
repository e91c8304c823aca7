import Foundation
import StratusAdapterKit
import Testing

/// Namespaces in ``XMLTree``: prefixes resolve to the namespace bound in scope, defaults apply to
/// unprefixed names only, and inner declarations shadow outer ones.
@Suite struct XMLTreeNamespaceTests {
    private func parse(_ text: String) throws -> XMLTree {
        try XMLTree.parse(Data(text.utf8))
    }

    @Test func prefixesResolveToTheBindingInScope() throws {
        let document = try parse(
            """
            <d:multistatus xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns">\
            <d:response><d:propstat><d:prop>\
            <oc:fileid>7</oc:fileid><x:sha256 xmlns:x="urn:example:a&amp;b">ab</x:sha256><plain/>\
            <d:getetag xmlns:d="urn:shadowed">"e"</d:getetag>\
            </d:prop></d:propstat></d:response></d:multistatus>
            """)
        #expect(document.name == "multistatus")
        #expect(document.namespace == "DAV:")
        let prop = try #require(
            document.child("response", namespace: "DAV:")?.child("propstat", namespace: "DAV:")?
                .child("prop", namespace: "DAV:"))
        #expect(prop.children.map(\.namespace) == ["http://owncloud.org/ns", "urn:example:a&b", "", "urn:shadowed"])
        #expect(prop.child("fileid", namespace: "http://owncloud.org/ns")?.text == "7")
        #expect(prop.child("fileid", namespace: "DAV:") == nil)
        #expect(prop.children("getetag", namespace: "DAV:").isEmpty)
        #expect(prop.child("getetag", namespace: "urn:shadowed")?.text == "\"e\"")
    }

    @Test func aDefaultNamespaceAppliesToUnprefixedNamesAndCanBeUndone() throws {
        let document = try parse(
            """
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\
            <Contents><Key>a</Key></Contents><Other xmlns=""><Inner/></Other></ListBucketResult>
            """)
        let s3 = "http://s3.amazonaws.com/doc/2006-03-01/"
        #expect(document.namespace == s3)
        #expect(document.child("Contents")?.child("Key")?.namespace == s3)
        #expect(document.child("Other")?.namespace == "")
        #expect(document.child("Other")?.child("Inner")?.namespace == "")
    }

    @Test func anUnboundPrefixReadsAsNoNamespace() throws {
        let document = try parse("<q:root><q:leaf>x</q:leaf></q:root>")
        #expect(document.name == "root")
        #expect(document.namespace == "")
        #expect(document.child("leaf", namespace: "")?.text == "x")
    }
}
